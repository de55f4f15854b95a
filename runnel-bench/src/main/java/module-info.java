/** Runnel's workload harnesses: bench, the bare loop, and the multi-process drain. */
module dev.runnel.bench {
    requires transitive dev.runnel.core;
    requires org.slf4j;

    exports dev.runnel.bench;
}
