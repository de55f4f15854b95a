package dev.runnel.bench;

import dev.runnel.JobCount;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.Jobs;
import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.SearchIndex;
import dev.runnel.SearchIndexes;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.internal.JobSearch;
import dev.runnel.postgres.PostgresDriver;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The query harness ({@code runnel query-bench}): a busy day's jobs loaded straight into a Postgres
 * job table with SQL ({@code querybench.sql}), vacuumed and analyzed, then every listing a person
 * or a dashboard asks for and the counts, each timed through the driver several times in a row
 * (more than the five executions after which a prepared statement could turn generic). Reports
 * the median and the slowest run of each; the target is a median under {@value #TARGET_MS} ms.
 */
public final class QueryBench {
    /** Each listing and the counts should answer within this many milliseconds. */
    public static final double TARGET_MS = 100;
    /** The first job's creation time: a day of jobs follows it. */
    static final Instant DAY = Instant.parse("2026-12-01T00:00:00Z");
    private static final int LOAD_CHUNK = 1_000_000;

    /**
     * @param jobs jobs in the table
     * @param runs timed runs of each query
     * @param schema the harness's own schema, made and marked by it, dropped at the start unless
     *     reused; a schema of that name that it did not make is refused
     * @param keep keep the schema at the end, for a later {@code reuse}
     * @param reuse use the schema as it is when it already holds {@code jobs} jobs
     * @param searchIndexes add the indexes Runnel leaves out, which a search for a rare kind or
     *     args value needs (a reused table's are dropped without it)
     */
    public record Options(long jobs, int runs, String schema, boolean keep, boolean reuse, boolean searchIndexes) {
        public Options {
            if (jobs < 10_000 || runs < 1) {
                throw new IllegalArgumentException("jobs must be at least 10000 and runs at least 1");
            }
            BenchSchema.checkName(schema);
        }
    }

    /** Marks the timings of whole listings ({@code Jobs.list}) of searches that returned a partial page. */
    static final String WHOLE = "(list)";

    /**
     * One timed query: its name, the rows it returned, the median and slowest of its runs, and
     * whether it returned a partial page (a search that stopped at its budget).
     */
    public record Timing(String name, int rows, double medianMs, double maxMs, boolean partial) {
        public boolean met() {
            return medianMs < TARGET_MS;
        }

        Timing partial(boolean partial) {
            return new Timing(name, rows, medianMs, maxMs, partial);
        }
    }

    private final String url;
    private final Options options;
    private final PrintWriter out;

    public QueryBench(String url, Options options, PrintWriter out) {
        this.url = url;
        this.options = options;
        this.out = out;
    }

    public QueryBenchResult run() {
        String own = url + (url.contains("?") ? "&" : "?") + "schema=" + options.schema();
        try (PostgresDriver driver = PostgresDriver.fromUrl(own)) {
            withLongStatements(driver, "reading the schema", c -> {
                BenchSchema.checkOwn(c, options.schema(), "runnel query-bench");
                return null;
            });
            SqlFile<QueryBenchSql> sql = SqlFile.parse("querybench.sql", QueryBenchSql.class.getResourceAsStream("querybench.sql"),
                    QueryBenchSql.class).withSchema(options.schema());
            double loadSeconds = prepare(driver, sql);
            SearchIndexes searchIndexes = new SearchIndexes(driver);
            if (options.searchIndexes()) {
                long start = System.nanoTime();
                for (SearchIndex index : SearchIndex.values()) {
                    searchIndexes.create(index);
                }
                exec(driver, "ANALYZE " + options.schema() + ".runnel_job", "analyzing the table");
                out.printf(Locale.ROOT, "query-bench: search indexes (kind, args) created in %.0f s%n",
                        (System.nanoTime() - start) / 1e9);
            } else {
                for (SearchIndex index : SearchIndex.values()) {
                    searchIndexes.drop(index);
                }
            }
            long[] sizes = sizes(driver, sql);
            out.printf(Locale.ROOT, "query-bench: %,d jobs, heap %.0f MB, indexes %.0f MB%n", sizes[0], sizes[1] / 1048576.0,
                    sizes[2] / 1048576.0);
            List<Timing> timings = new ArrayList<>();
            // Each listing as people get it (Jobs.search: a filter no index serves reads for at most
            // its budget); where that returned a partial page, also every match (Jobs.list).
            JobSearch search = new JobSearch(driver);
            for (Map.Entry<String, JobQuery> q : queries().entrySet()) {
                boolean[] partial = new boolean[1];
                Timing t = time(q.getKey(), () -> {
                    JobPage page = search.search(q.getValue(), Jobs.SEARCH_BUDGET);
                    partial[0] = page.partial();
                    return page.jobs().size();
                });
                timings.add(t.partial(partial[0]));
                if (partial[0]) {
                    out.printf(Locale.ROOT, "query-bench:   a partial page: the search stopped at its %d ms budget%n",
                            Jobs.SEARCH_BUDGET.toMillis());
                    timings.add(time(q.getKey() + ", every match " + WHOLE, () -> driver.jobList(q.getValue()).size()));
                }
            }
            timings.add(time("counts by queue and state (fast)",
                    () -> driver.jobCountByQueueAndState(JobCountParams.FAST).size()));
            Map<String, Long> truth = exactCounts(driver, sql);
            List<JobCount> fast = driver.jobCountByQueueAndState(JobCountParams.FAST);
            double worstError = worstEstimateError(fast, truth);
            for (JobCount c : fast) {
                if (!c.exact()) {
                    long real = truth.getOrDefault(c.queue() + "/" + c.state().dbName(), 0L);
                    out.printf(Locale.ROOT, "query-bench: estimated %s in %s: %,d, truly %,d (%+.1f%%)%n",
                            c.state().dbName(), c.queue(), c.count(), real, 100.0 * (c.count() - real) / real);
                }
            }
            out.printf(Locale.ROOT, "query-bench: the fast counts' estimates within %.2f%% of the true counts, the"
                    + " others exact%n", 100 * worstError);
            timings.add(time("counts by queue and state (exact)",
                    () -> driver.jobCountByQueueAndState(JobCountParams.EXACT).size(), Math.min(options.runs(), 3)));
            if (!options.keep()) {
                dropSchema(driver);
            }
            return new QueryBenchResult(sizes[0], loadSeconds, sizes[1], sizes[2], timings, worstError);
        }
    }

    /**
     * The timed listings, in the order printed: pages of all jobs, then each filter alone, then
     * some together. Pages of 100, newest first, as a dashboard shows them.
     */
    private Map<String, JobQuery> queries() {
        long n = options.jobs();
        JobQuery newest = JobQuery.all().newestFirst().limit(JobQuery.DEFAULT_LIMIT);
        Instant lastHour = DAY.plus(Duration.ofDays(1)).minus(Duration.ofHours(1));
        Instant noon = DAY.plus(Duration.ofHours(12));
        Map<String, JobQuery> q = new java.util.LinkedHashMap<>();
        q.put("first page", newest);
        q.put("deep page (after the middle id)", newest.afterId(n / 2));
        q.put("previous page (before the middle id)", newest.beforeId(n / 2));
        q.put("first page, oldest first", JobQuery.all());
        for (JobState state : JobState.values()) {
            q.put("state " + state.dbName(), newest.states(state));
        }
        q.put("state completed, deep page", newest.states(JobState.COMPLETED).afterId(n / 2));
        q.put("queue mailers (1 in 5)", newest.queue("mailers"));
        q.put("queue rare_queue (1 in 1,000)", newest.queue("rare_queue"));
        q.put("kind kind_3 (1 in 20)", newest.kinds("kind_3"));
        q.put("kind rare_kind (1 in 10,000)", newest.kinds("rare_kind"));
        q.put("tag batch (1 in 7)", newest.tags("batch"));
        q.put("tag vip (1 in 2,000)", newest.tags("vip"));
        q.put("args region eu (1 in 2)", newest.args("{\"region\":\"eu\"}"));
        q.put("args customer_id 42 (1 in 100,000)", newest.args("{\"customer_id\":42}"));
        q.put("id range (a tenth of the ids)", newest.idRange(n / 5, n / 5 + n / 10));
        q.put("created in the last hour", newest.createdBetween(lastHour, null));
        q.put("created in an hour at noon", newest.createdBetween(noon, noon.plus(Duration.ofHours(1))));
        q.put("state discarded, kind rare_kind", newest.states(JobState.DISCARDED).kinds("rare_kind"));
        q.put("state completed, queue mailers, tag batch", newest.states(JobState.COMPLETED).queue("mailers")
                .tags("batch"));
        q.put("kind kind_3, args customer_id 42", newest.kinds("kind_3").args("{\"customer_id\":42}"));
        q.put("state retryable, queue default, created at noon", newest.states(JobState.RETRYABLE).queue("default")
                .createdBetween(noon, noon.plus(Duration.ofHours(1))));
        return q;
    }

    private Timing time(String name, Supplier<Integer> query) {
        return time(name, query, options.runs());
    }

    private Timing time(String name, Supplier<Integer> query, int runs) {
        double[] ms = new double[runs];
        int rows = 0;
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            rows = query.get();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        Timing t = new Timing(name, rows, sorted[runs / 2], sorted[runs - 1], false);
        out.printf(Locale.ROOT, "query-bench: %-50s %5d rows  median %8.2f ms  max %8.2f ms  %s%n", name, rows,
                t.medianMs(), t.maxMs(), t.met() || name.endsWith(WHOLE) ? "" : "OVER " + (int) TARGET_MS + " ms");
        out.flush();
        return t;
    }

    /** Loads the table (unless a kept one can be reused); returns the seconds it took, 0 when reused. */
    private double prepare(PostgresDriver driver, SqlFile<QueryBenchSql> sql) {
        if (options.reuse() && loadedJobs(driver, sql) == options.jobs()) {
            out.printf(Locale.ROOT, "query-bench: reusing the %,d jobs in schema %s%n", options.jobs(), options.schema());
            return 0;
        }
        dropSchema(driver);
        new Migrator(driver).up();
        withLongStatements(driver, "marking the schema", c -> {
            BenchSchema.mark(c, options.schema());
            return null;
        });
        long start = System.nanoTime();
        long n = options.jobs();
        Duration step = Duration.ofDays(1).dividedBy(n);
        for (long from = 1; from <= n; from += LOAD_CHUNK) {
            long to = Math.min(n, from + LOAD_CHUNK - 1);
            long first = from;
            withLongStatements(driver, "loading jobs", c -> {
                Sql load = sql.get(QueryBenchSql.Load);
                try (PreparedStatement ps = c.prepareStatement(load.text())) {
                    load.setLong(ps, QueryBenchSql.P.FROM_ID, first);
                    load.setLong(ps, QueryBenchSql.P.TO_ID, to);
                    load.setLong(ps, QueryBenchSql.P.TOTAL, n);
                    load.setObject(ps, QueryBenchSql.P.FIRST_CREATED_AT, OffsetDateTime.ofInstant(DAY, ZoneOffset.UTC));
                    load.setLong(ps, QueryBenchSql.P.STEP_US, step.toNanos() / 1_000);
                    ps.executeUpdate();
                }
                return null;
            });
            out.printf(Locale.ROOT, "query-bench: loaded %,d of %,d jobs (%.0f s)%n", to, n,
                    (System.nanoTime() - start) / 1e9);
            out.flush();
        }
        withLongStatements(driver, "setting the id sequence", c -> {
            Sql setSequence = sql.get(QueryBenchSql.SetSequence);
            try (PreparedStatement ps = c.prepareStatement(setSequence.text())) {
                setSequence.setLong(ps, QueryBenchSql.P.LAST_ID, n);
                ps.executeQuery().close();
            }
            return null;
        });
        // Autovacuum may be off (it is on the machine of docs/benchmarks.md): the statistics and
        // the visibility map a day-old table would have come from this.
        exec(driver, "VACUUM ANALYZE " + options.schema() + ".runnel_job", "vacuuming the table");
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "query-bench: loaded, vacuumed and analyzed in %.0f s%n", seconds);
        return seconds;
    }

    private long loadedJobs(PostgresDriver driver, SqlFile<QueryBenchSql> sql) {
        try {
            return sizes(driver, sql)[0];
        } catch (RunnelException noTable) {
            return -1;
        }
    }

    /** Jobs, heap bytes and index bytes of the table. */
    private long[] sizes(PostgresDriver driver, SqlFile<QueryBenchSql> sql) {
        return withLongStatements(driver, "measuring the table", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get(QueryBenchSql.Loaded).text()); ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(3), rs.getLong(4)};
            }
        });
    }

    private Map<String, Long> exactCounts(PostgresDriver driver, SqlFile<QueryBenchSql> sql) {
        return withLongStatements(driver, "counting exactly", c -> {
            Map<String, Long> counts = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(sql.get(QueryBenchSql.CountsExact).text()); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.put(rs.getString(1) + "/" + rs.getString(2), rs.getLong(3));
                }
            }
            return counts;
        });
    }

    /** The largest relative error of an estimated count against the truth; the exact ones must match. */
    static double worstEstimateError(List<JobCount> fast, Map<String, Long> truth) {
        double worst = 0;
        for (JobCount c : fast) {
            long real = truth.getOrDefault(c.queue() + "/" + c.state().dbName(), 0L);
            if (c.exact() && c.count() != real) {
                throw new IllegalStateException("the fast count of " + c + " is marked exact but the table holds " + real);
            }
            if (!c.exact() && real > 0) {
                worst = Math.max(worst, Math.abs(c.count() - real) / (double) real);
            }
        }
        return worst;
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** Runs {@code work} on a pooled connection with no socket timeout: loading a million jobs takes a while. */
    private static <T> T withLongStatements(PostgresDriver driver, String what, Work<T> work) {
        try (Connection c = driver.dataSource().getConnection()) {
            int before = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, 0);
            try {
                return work.run(c);
            } finally {
                c.setNetworkTimeout(Runnable::run, before);
            }
        } catch (SQLException e) {
            throw new RunnelException(what + " failed: " + e.getMessage(), e);
        }
    }

    /** Drops the harness's schema, which {@link BenchSchema#checkOwn} has found to be its own (or missing). */
    private void dropSchema(PostgresDriver driver) {
        withLongStatements(driver, "dropping the schema", c -> {
            BenchSchema.dropIfOwn(c, options.schema());
            return null;
        });
    }

    private static void exec(PostgresDriver driver, String statement, String what) {
        withLongStatements(driver, what, c -> {
            try (Statement st = c.createStatement()) {
                st.execute(statement); // the schema in it is a checked plain identifier
            }
            return null;
        });
    }
}
