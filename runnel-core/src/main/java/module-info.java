/**
 * Runnel core: the public API ({@code dev.runnel}), the runtime, and the driver SPI
 * ({@code dev.runnel.driver}, internal to Runnel's own drivers and subject to change).
 *
 * <p>The API's services ({@code Runnel}, {@code Jobs}, {@code Queues}...) are facades over the
 * runtime ({@code dev.runnel.internal}), which alone calls the driver; of the SPI the API names
 * only {@code Driver}, the type a user hands to the builder. The SPI names only the API's value
 * types (rows, states, queries), and they and the SPI's {@code JobJson} share Runnel's own JSON
 * ({@code dev.runnel.json}), which names nothing of Runnel.
 */
module dev.runnel.core {
    requires transitive java.sql;
    // The builder takes the application's ObjectMapper: a type of the API.
    requires transitive com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires org.slf4j;
    // Periodic jobs' cron expressions (an automatic module: cron-utils ships no module-info).
    requires com.cronutils;

    exports dev.runnel;
    exports dev.runnel.driver;
    // dev.runnel.json is not exported: drivers reach Runnel's JSON through the SPI's JobJson.
    // The runtime's internals, only to the microbenchmarks that measure them.
    exports dev.runnel.internal to dev.runnel.bench;

    // Error records and internal values are written with Jackson.
    opens dev.runnel to com.fasterxml.jackson.databind;

    uses dev.runnel.driver.DriverProvider;
}
