/** The runnel command line. */
module dev.runnel.cli {
    requires dev.runnel.core;
    requires dev.runnel.sqlite;
    requires dev.runnel.postgres;
    requires dev.runnel.bench;
    requires dev.runnel.web;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    opens dev.runnel.cli to info.picocli;
}
