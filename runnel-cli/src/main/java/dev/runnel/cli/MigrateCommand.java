package dev.runnel.cli;

import dev.runnel.Migrator;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code runnel migrate up|down|list|sql}. */
@Command(name = "migrate", mixinStandardHelpOptions = true, description = "Apply, revert, list or print schema migrations.",
        subcommands = {MigrateCommand.Up.class, MigrateCommand.Down.class, MigrateCommand.ListMigrations.class,
                MigrateCommand.Sql.class})
final class MigrateCommand {

    abstract static class Base extends DriverCommand {
        @Override
        final void run(Driver driver, PrintWriter out) {
            run(new Migrator(driver), out);
        }

        abstract void run(Migrator migrator, PrintWriter out);
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Apply pending migrations.")
    static final class Up extends Base {
        @Option(names = "--target-version", description = "Stop at this version (default: the latest).")
        Integer target;

        @Override
        void run(Migrator migrator, PrintWriter out) {
            List<Integer> applied = target == null ? migrator.up() : migrator.up(target);
            out.println(applied.isEmpty() ? "migrate: already at version " + migrator.currentVersion()
                    : "migrate: applied " + applied + ", now at version " + migrator.currentVersion());
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Revert the newest migrations.")
    static final class Down extends Base {
        @Option(names = "--max-steps", defaultValue = "1", description = "How many to revert (default: ${DEFAULT-VALUE}).")
        int steps;

        @Override
        void run(Migrator migrator, PrintWriter out) {
            List<Integer> reverted = migrator.down(steps);
            out.println(reverted.isEmpty() ? "migrate: nothing to revert"
                    : "migrate: reverted " + reverted + ", now at version " + migrator.currentVersion());
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List migrations and whether each is applied.")
    static final class ListMigrations extends Base {
        @Override
        void run(Migrator migrator, PrintWriter out) {
            for (Migrator.Status s : migrator.list()) {
                out.printf("%03d %-30s %s%n", s.version(), s.name(),
                        s.appliedAt().map(at -> "applied " + at).orElse("pending"));
            }
        }
    }

    @Command(name = "sql", mixinStandardHelpOptions = true, description = "Print the migrations' SQL without running it.")
    static final class Sql extends Base {
        @Option(names = "--down", description = "Print the down migrations instead.")
        boolean down;

        @Override
        void run(Migrator migrator, PrintWriter out) {
            out.print(migrator.sql(!down));
        }
    }
}
