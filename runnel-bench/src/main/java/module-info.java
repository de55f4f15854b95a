/** Runnel's workload harnesses: bench, the bare loop, the multi-process drain, and the table-health churn. */
module dev.runnel.bench {
    requires transitive dev.runnel.core;
    requires org.slf4j;
    requires java.sql;
    requires dev.runnel.sqlite;
    requires dev.runnel.postgres;
    // The jobs table's HTTP rows: a local server (in a JVM of its own) and a client.
    requires jdk.httpserver;
    requires java.net.http;

    exports dev.runnel.bench;
}
