package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.driver.Driver;
import picocli.CommandLine.Option;

/** The {@code --database-url} option every command shares. */
final class DatabaseOption {
    /** Used when neither the flag nor {@code RUNNEL_DATABASE_URL} is given. */
    static final String DEFAULT_URL = "sqlite://runnel.db";

    @Option(names = "--database-url", paramLabel = "URL",
            description = {"The database, one of:", "  sqlite://path/to/file.db", "  sqlite://:memory:",
                "  postgres://user:password@host:5432/db?schema=s",
                "Default: $RUNNEL_DATABASE_URL,", "else " + DEFAULT_URL + "."})
    String url;

    String resolved() {
        if (url != null) {
            return url;
        }
        String env = System.getenv("RUNNEL_DATABASE_URL");
        return env != null && !env.isBlank() ? env : DEFAULT_URL;
    }

    Driver open() {
        return Drivers.open(resolved());
    }
}
