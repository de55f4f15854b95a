/** Micrometer meters for Runnel clients. */
module dev.runnel.micrometer {
    requires transitive dev.runnel.core;
    // An automatic module: micrometer-core ships no module-info.
    requires transitive micrometer.core;

    exports dev.runnel.micrometer;
}
