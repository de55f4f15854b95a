/** Runnel's workload harnesses: bench, the bare loop, the multi-process drain, the table-health churn, and the embedded-latency scenario. */
module dev.runnel.bench {
    requires transitive dev.runnel.core;
    requires org.slf4j;
    requires java.sql;
    // The embedded-latency scenario's web endpoint and its load generator.
    requires jdk.httpserver;
    requires java.net.http;
    requires dev.runnel.sqlite;
    requires dev.runnel.postgres;
    // The jobs table's HTTP rows: a local server (in a JVM of its own) and a client.
    requires jdk.httpserver;
    requires java.net.http;

    exports dev.runnel.bench;
}
