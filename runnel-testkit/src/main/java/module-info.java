/** Runnel's driver conformance suite and test helpers. */
module dev.runnel.testkit {
    requires transitive dev.runnel.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.assertj.core;
    requires com.fasterxml.jackson.databind;

    exports dev.runnel.testkit;
    exports dev.runnel.testkit.conformance;

    opens dev.runnel.testkit.conformance to org.junit.platform.commons;
}
