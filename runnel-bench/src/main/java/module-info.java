/**
 * Runnel's workload harnesses: bench, the bare loop, the multi-process drain, the table-health
 * churn, and the scenarios (embedded latency, SQLite contention, the jobs table, insert-to-start latency).
 */
module dev.runnel.bench {
    requires transitive dev.runnel.core;
    requires org.slf4j;
    requires java.sql;
    // The scenarios' web endpoints (embedded latency; the jobs table's HTTP rows) and their clients.
    requires jdk.httpserver;
    requires java.net.http;
    // CPU time and heap allocated per job (WorkCost).
    requires jdk.management;
    requires dev.runnel.sqlite;
    requires dev.runnel.postgres;
    requires dev.runnel.redis;

    exports dev.runnel.bench;
}
