/** The Postgres driver for Runnel. */
module dev.runnel.postgres {
    requires transitive dev.runnel.core;
    requires org.postgresql.jdbc;
    requires com.zaxxer.hikari;
    requires org.slf4j;

    exports dev.runnel.postgres;

    provides dev.runnel.driver.DriverProvider with dev.runnel.postgres.PostgresDriverProvider;
}
