package dev.runnel.postgres;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The counts of jobs by queue and state of {@link PostgresDriver}, from {@code query.sql}: exact (a
 * scan of the table), or fast enough for a dashboard's every refresh.
 *
 * <p>The fast counts read a sample of the table's pages for the completed jobs (most of a busy
 * table), and count the other states exactly through the indexes that hold only their jobs, both
 * at once on two connections. Counting through an index is quick only while the table's pages are
 * marked all-visible: a backlog of jobs inserted or changed since the last vacuum is checked in the
 * table row by row (on 10 million jobs, 40,000 jobs just made available took the exact counts from
 * 60 to 600 ms). So the exact counts get {@link #EXACT_TIMEOUT}; past it, the sample's estimates
 * stand in for every state but running for {@link #ESTIMATES_FOR} before counting exactly is tried
 * again.
 * A table of at most {@link #SAMPLE_PAGES} pages is read whole: every count exact, one statement.
 */
final class PostgresCounts {
    /**
     * How many of the job table's pages a fast count samples: {@value} (8 kB each, 16 MB). On 10
     * million jobs (415,000 pages, 0.5% of them sampled) its estimates of the completed jobs of
     * queues holding 9% to 49% of them were within 0.2% to 3.7%, of one holding 0.1% within 1.7%
     * to 31% (docs/benchmarks.md, sessions 4 and 6).
     */
    static final long SAMPLE_PAGES = 2_000;
    /**
     * How long the exact counts of the states but completed may take in the fast counts: 80 ms,
     * the sample being read meanwhile. On 10 million jobs, 260,000 of them not completed took 65 ms
     * to count after a vacuum.
     */
    static final Duration EXACT_TIMEOUT = Duration.ofMillis(80);
    /** How long estimates stand in after the exact counts took too long: 1 minute. */
    static final Duration ESTIMATES_FOR = Duration.ofMinutes(1);
    /** The order counts are returned in: by queue (as Java compares names, whatever the database's collation), then state. */
    private static final Comparator<JobCount> ORDER = Comparator.comparing(JobCount::queue).thenComparing(JobCount::state);

    private final PostgresConnections connections;
    private final SqlFile<QuerySql> sql;
    private final long samplePages;
    private final Duration exactTimeout;
    /** System.nanoTime() until which the fast counts use estimates only; 0 when counting exactly. */
    private volatile long estimatesUntil;
    private volatile boolean estimating;

    PostgresCounts(PostgresConnections connections, SqlFile<QuerySql> sql) {
        this(connections, sql, SAMPLE_PAGES, EXACT_TIMEOUT);
    }

    /** With another sample size and timeout (zero: estimates only): for tests. */
    PostgresCounts(PostgresConnections connections, SqlFile<QuerySql> sql, long samplePages, Duration exactTimeout) {
        this.connections = connections;
        this.sql = sql;
        this.samplePages = samplePages;
        this.exactTimeout = exactTimeout;
    }

    List<JobCount> count(JobCountParams params) {
        List<JobCount> counts = params.estimates() ? fast() : exact();
        counts.sort(ORDER);
        return counts;
    }

    private List<JobCount> exact() {
        return counted(QuerySql.JobCountExact);
    }

    /** The rows of a statement that returns queue, state and count. */
    private List<JobCount> counted(QuerySql statement) {
        return connections.run("counting jobs", c -> counted(c, statement));
    }

    private List<JobCount> counted(Connection c, QuerySql statement) throws SQLException {
        List<JobCount> counts = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.get(statement).text()); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                counts.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)), rs.getLong(3)));
            }
        }
        return counts;
    }

    private List<JobCount> fast() {
        long pages = connections.run("counting jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get(QuerySql.JobTablePages).text()); ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
        if (pages <= samplePages) {
            return serially("counting jobs", c -> sampled(c, 100));
        }
        double percent = 100.0 * samplePages / pages;
        // The sample is read while the other states are counted, each on a connection of its own.
        CompletableFuture<List<JobCount>> sample = new CompletableFuture<>();
        Thread.ofVirtual().name("runnel-count-sample").start(() -> {
            try {
                sample.complete(serially("counting jobs", c -> sampled(c, percent)));
            } catch (Throwable e) {
                sample.completeExceptionally(e);
            }
        });
        boolean skip = exactTimeout.isZero() || estimating && System.nanoTime() - estimatesUntil < 0;
        Optional<List<JobCount>> others = skip ? Optional.empty() : serially("counting jobs", this::notCompleted);
        estimating = others.isEmpty();
        if (others.isEmpty() && System.nanoTime() - estimatesUntil >= 0) {
            estimatesUntil = System.nanoTime() + ESTIMATES_FOR.toNanos();
        }
        // Running jobs are always counted exactly: at most the clients' concurrency, in an index of their own.
        List<JobCount> counts = new ArrayList<>(others.orElseGet(() -> counted(QuerySql.JobCountRunning)));
        List<JobCount> estimated;
        try {
            estimated = sample.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        estimated.stream().filter(c -> others.isPresent() ? c.state() == JobState.COMPLETED
                : c.state() != JobState.RUNNING).forEach(counts::add);
        return counts;
    }

    /** Every state by queue in a sample of {@code percent} of the pages, scaled up; exact at 100. */
    private List<JobCount> sampled(Connection c, double percent) throws SQLException {
        boolean exact = percent >= 100;
        List<JobCount> counts = new ArrayList<>();
        Sql sampled = sql.get(QuerySql.JobCountSampled);
        try (PreparedStatement ps = c.prepareStatement(sampled.text())) {
            sampled.setDouble(ps, QuerySql.P.PERCENT, Math.min(100, percent));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long n = rs.getLong(3);
                    counts.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)),
                            exact ? n : Math.round(n * 100 / percent), exact));
                }
            }
        }
        return counts;
    }

    /** Every state but completed counted exactly, or empty when that took longer than {@link #exactTimeout}. */
    private Optional<List<JobCount>> notCompleted(Connection c) throws SQLException {
        Sql timeout = sql.get(QuerySql.JobCountTimeout);
        try (PreparedStatement ps = c.prepareStatement(timeout.text())) {
            timeout.setString(ps, QuerySql.P.TIMEOUT, exactTimeout.toMillis() + "ms");
            ps.execute();
        }
        try {
            return Optional.of(counted(c, QuerySql.JobCountNotCompleted));
        } catch (SQLException e) {
            if (!"57014".equals(e.getSQLState())) { // query_canceled: the timeout
                throw e;
            }
            c.rollback();
            return Optional.empty();
        }
    }

    /** {@code work} in a transaction of its own without parallel workers. */
    private <T> T serially(String operation, PostgresConnections.Work<T> work) {
        return connections.transaction(operation, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get(QuerySql.JobCountSerial).text())) {
                ps.execute();
            }
            return work.run(c);
        });
    }
}
