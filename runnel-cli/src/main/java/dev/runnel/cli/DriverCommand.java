package dev.runnel.cli;

import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that works on the database directly, without a client: it opens the driver, runs, closes it. */
abstract class DriverCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (Driver driver = database.open()) {
            run(driver, spec.commandLine().getOut());
        }
        return 0;
    }

    abstract void run(Driver driver, PrintWriter out);
}
