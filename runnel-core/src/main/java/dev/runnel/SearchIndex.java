package dev.runnel;

/**
 * An index Runnel does not create by default, for finding rare jobs in a table of millions: each
 * costs every inserted job an entry, so an application that searches this way adds it on purpose
 * ({@link SearchIndexes}, or {@code runnel indexes create NAME}). Without one, such a listing walks
 * the ids from the newest until its page is full: on 10 million jobs, a kind held by 1 in 10,000
 * jobs took 230 to 370 ms and an args value held by 1 in 100,000 took 1.6 to 2.6 s; with them, 4
 * and 1 ms. Measured with both together, the Postgres drain spent about a quarter more CPU per job
 * (docs/benchmarks.md, session 5). Postgres only.
 */
public enum SearchIndex {
    /** {@code (kind, id)}: listings filtered by a kind that few jobs have. */
    KIND("kind"),
    /** A GIN index over the args ({@code jsonb_path_ops}): listings filtered by a value in the args. */
    ARGS("args");

    private final String cliName;

    SearchIndex(String cliName) {
        this.cliName = cliName;
    }

    /** Its name on the command line and in listings: {@code kind} or {@code args}. */
    public String cliName() {
        return cliName;
    }

    /** The index named {@code name} ({@code kind} or {@code args}). */
    public static SearchIndex named(String name) {
        for (SearchIndex index : values()) {
            if (index.cliName.equals(name)) {
                return index;
            }
        }
        throw new IllegalArgumentException("no search index named '" + name + "' (kind, args)");
    }
}
