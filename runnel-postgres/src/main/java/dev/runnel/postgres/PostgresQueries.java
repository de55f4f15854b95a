package dev.runnel.postgres;

import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.CreationIds;
import dev.runnel.driver.JobCountParams;
import dev.runnel.driver.JobListScan;
import dev.runnel.driver.SqlFile;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.postgresql.PGStatement;

/**
 * The listings and counts of {@link PostgresDriver}, from {@code query.sql}: what the CLI, a
 * dashboard and bulk changes by query read. None of it is on the hot path.
 */
final class PostgresQueries {
    private static final Set<String> STATEMENTS = Set.of("JobListAscending", "JobListDescending", "JobFirstAtOrAfter",
            "JobLastId", "JobCountExact",
            "JobCountNotCompleted", "JobTablePages", "JobCountCompletedSampled", "JobCountSerial");
    /**
     * How many of the job table's pages a fast count reads to estimate its completed jobs: {@value}
     * (8 kB each, 16 MB). A table no larger is counted exactly. On 10 million jobs (415,000 pages,
     * 0.5% of them sampled) the sampling statement took 19 ms; its estimates of the completed jobs
     * of queues holding 9% to 49% of them were within 0.3% to 3.7%, of one holding 0.1% within
     * 1.7% to 31% (docs/benchmarks.md, session 4).
     */
    static final long SAMPLE_PAGES = 2_000;
    /** The order counts are returned in: by queue (as Java compares names, whatever the database's collation), then state. */
    private static final Comparator<JobCount> ORDER = Comparator.comparing(JobCount::queue).thenComparing(JobCount::state);

    private final PostgresConnections connections;
    private final SqlFile sql;

    PostgresQueries(PostgresSchema schema, PostgresConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("query.sql", PostgresQueries.class.getResourceAsStream("query.sql"), STATEMENTS)
                .withSchema(schema.quoted());
    }

    List<JobRow> list(JobQuery query) {
        JobListScan whole = JobListScan.of(query);
        if (whole.empty()) {
            return List.of();
        }
        return connections.run("listing jobs", c -> {
            JobListScan scan;
            try (PreparedStatement first = c.prepareStatement(sql.get("JobFirstAtOrAfter"));
                    PreparedStatement last = c.prepareStatement(sql.get("JobLastId"))) {
                scan = CreationIds.narrow(whole, query, CreationIds.prober(first, last, PostgresRows::instant));
            }
            if (scan.empty()) {
                return List.<JobRow>of();
            }
            try (PreparedStatement ps = c.prepareStatement(sql.get(scan.descending() ? "JobListDescending"
                    : "JobListAscending"))) {
                planEachExecution(ps);
                ps.setLong(1, scan.fromId());
                ps.setLong(2, scan.toId());
                String states = query.states().stream().map(JobState::dbName).sorted()
                        .collect(Collectors.joining(",", "{", "}"));
                ps.setObject(3, states, Types.OTHER);
                ps.setObject(4, states, Types.OTHER);
                bindTwice(ps, 5, texts(c, query.queues()));
                bindTwice(ps, 7, texts(c, query.kinds()));
                bindTwice(ps, 9, texts(c, query.tags()));
                String args = query.args().orElse(null);
                ps.setString(11, args);
                ps.setString(12, args);
                bindTime(ps, 13, query.createdFrom());
                bindTime(ps, 15, query.createdBefore());
                ps.setInt(17, query.limit());
                List<JobRow> rows = new ArrayList<>(Math.min(query.limit(), 1_000));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(PostgresRows.decode(rs));
                    }
                }
                return scan.inQueryOrder(rows);
            }
        });
    }

    List<JobCount> count(JobCountParams params) {
        if (!params.estimates()) {
            return connections.run("counting jobs", c -> {
                List<JobCount> counts = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(sql.get("JobCountExact"));
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        counts.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)), rs.getLong(3)));
                    }
                }
                counts.sort(ORDER);
                return counts;
            });
        }
        // The two halves at once, each on a connection of its own: the sample of completed jobs is
        // read while the other states are counted (on 10 million jobs 43 and 60 ms).
        CompletableFuture<List<JobCount>> completed = new CompletableFuture<>();
        Thread.ofVirtual().name("runnel-count-completed").start(() -> {
            try {
                completed.complete(serially("counting completed jobs", this::completed));
            } catch (Throwable e) {
                completed.completeExceptionally(e);
            }
        });
        List<JobCount> counts = new ArrayList<>(serially("counting jobs", c -> {
            List<JobCount> notCompleted = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobCountNotCompleted"));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    notCompleted.add(new JobCount(rs.getString(1), JobState.fromDb(rs.getString(2)), rs.getLong(3)));
                }
            }
            return notCompleted;
        }));
        try {
            counts.addAll(completed.join());
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        counts.sort(ORDER);
        return counts;
    }

    /** {@code work} in a transaction of its own without parallel workers. */
    private <T> T serially(String operation, PostgresConnections.Work<T> work) {
        return connections.transaction(operation, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("JobCountSerial"))) {
                ps.execute();
            }
            return work.run(c);
        });
    }

    /** The completed jobs by queue: exact in a table of at most {@link #SAMPLE_PAGES}, else estimated from a sample. */
    private List<JobCount> completed(Connection c) throws SQLException {
        long pages;
        try (PreparedStatement ps = c.prepareStatement(sql.get("JobTablePages")); ResultSet rs = ps.executeQuery()) {
            rs.next();
            pages = rs.getLong(1);
        }
        boolean exact = pages <= SAMPLE_PAGES;
        double percent = exact ? 100 : 100.0 * SAMPLE_PAGES / pages;
        List<JobCount> counts = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.get("JobCountCompletedSampled"))) {
            ps.setDouble(1, percent);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long sampled = rs.getLong(2);
                    counts.add(new JobCount(rs.getString(1), JobState.COMPLETED,
                            exact ? sampled : Math.round(sampled * 100 / percent), exact));
                }
            }
        }
        return counts;
    }

    /**
     * Makes pgjdbc send {@code ps} as an unnamed statement each time, which the server plans with
     * the values bound: a listing's plan depends on which filters are on and how rare their values
     * are. Left as it is when the statement is not pgjdbc's (an application's pool of another make).
     */
    private static void planEachExecution(PreparedStatement ps) throws SQLException {
        if (ps.isWrapperFor(PGStatement.class)) {
            ps.unwrap(PGStatement.class).setPrepareThreshold(0);
        }
    }

    private static Array texts(Connection c, Collection<String> values) throws SQLException {
        return c.createArrayOf("text", values.toArray());
    }

    private static void bindTwice(PreparedStatement ps, int index, Array array) throws SQLException {
        ps.setArray(index, array);
        ps.setArray(index + 1, array);
    }

    private static void bindTime(PreparedStatement ps, int index, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            ps.setObject(index, PostgresJobs.timestamp(at.get()));
            ps.setObject(index + 1, PostgresJobs.timestamp(at.get()));
        } else {
            ps.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setNull(index + 1, Types.TIMESTAMP_WITH_TIMEZONE);
        }
    }
}
