package dev.runnel;

/**
 * An index Runnel does not create by default, for finding rare jobs in a table of millions: each
 * costs every inserted job an entry, so an application that searches this way adds it on purpose
 * ({@link SearchIndexes}, or {@code runnel indexes create NAME}). Without one, a listing
 * ({@link Jobs#list}) by such a value walks the ids from the cursor until its page is full: on 10
 * million jobs, a kind held by 1 in 10,000 jobs took about 1.1 s and an args value held by 1 in
 * 100,000 about 3 s; a search ({@link Jobs#search}) stops after about 50 ms with the matches it
 * found and the way on. With the indexes, 4 and 1 ms, whole. Measured with both together, the
 * Postgres drain spent about a quarter more CPU per job (docs/benchmarks.md, "What options cost"). Postgres
 * only.
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
