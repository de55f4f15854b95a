/** OpenTelemetry tracing for Runnel: spans for inserts and work, linked through each job's metadata. */
module dev.runnel.otel {
    requires transitive dev.runnel.core;
    // Automatic modules: the OpenTelemetry API ships no module-info.
    requires transitive io.opentelemetry.api;
    requires transitive io.opentelemetry.context;

    exports dev.runnel.otel;
}
