/** Runnel's dashboard and JSON API, on the JDK's HTTP server. */
module dev.runnel.web {
    requires dev.runnel.core;
    requires jdk.httpserver;
    // jte marks its generated classes @Generated (javax.annotation.processing); only javac needs it.
    requires static java.compiler;
    requires gg.jte.runtime;
    requires com.fasterxml.jackson.databind;
    requires org.slf4j;

    exports dev.runnel.web;
}
