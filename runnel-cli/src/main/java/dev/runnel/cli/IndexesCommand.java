package dev.runnel.cli;

import dev.runnel.SearchIndex;
import dev.runnel.SearchIndexes;
import dev.runnel.driver.Driver;
import java.io.PrintWriter;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code runnel indexes list|create|drop}: the optional search indexes (Postgres). */
@Command(name = "indexes", mixinStandardHelpOptions = true,
        description = {"List, create and drop the optional search indexes (Postgres): kind, for listings by a",
            "kind few jobs have, and args, for listings by a value in the args. Each costs every job",
            "an entry at insert (with both, the drain spent about a quarter more CPU per job)."},
        subcommands = {IndexesCommand.ListIndexes.class, IndexesCommand.Create.class, IndexesCommand.Drop.class})
final class IndexesCommand {

    abstract static class Base extends DriverCommand {
        @Override
        final void run(Driver driver, PrintWriter out) {
            run(new SearchIndexes(driver), out);
        }

        abstract void run(SearchIndexes indexes, PrintWriter out);
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Each search index and whether the table has it.")
    static final class ListIndexes extends Base {
        @Override
        void run(SearchIndexes indexes, PrintWriter out) {
            Set<SearchIndex> supported = indexes.supported();
            if (supported.isEmpty()) {
                out.println("indexes: this database has no search indexes (SQLite's listings walk its rowid)");
                return;
            }
            Set<SearchIndex> present = indexes.present();
            for (SearchIndex index : supported) {
                out.println(index.cliName() + "\t" + (present.contains(index) ? "present" : "absent"));
            }
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a search index (without blocking inserts or workers; slow on a large table).")
    static final class Create extends Base {
        @Parameters(index = "0", paramLabel = "NAME", description = "kind or args.")
        String name;

        @Override
        void run(SearchIndexes indexes, PrintWriter out) {
            SearchIndex index = SearchIndex.named(name);
            indexes.create(index);
            out.println("indexes: " + index.cliName() + " present");
        }
    }

    @Command(name = "drop", mixinStandardHelpOptions = true, description = "Drop a search index.")
    static final class Drop extends Base {
        @Parameters(index = "0", paramLabel = "NAME", description = "kind or args.")
        String name;

        @Override
        void run(SearchIndexes indexes, PrintWriter out) {
            SearchIndex index = SearchIndex.named(name);
            indexes.drop(index);
            out.println("indexes: " + index.cliName() + " absent");
        }
    }
}
