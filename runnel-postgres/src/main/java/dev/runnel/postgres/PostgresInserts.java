package dev.runnel.postgres;

import static dev.runnel.postgres.JobSql.P.*;

import dev.runnel.InsertResult;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Postgres driver's inserts: a batch in one statement, its columns as arrays expanded by
 * {@code unnest}, on a pooled connection or in the caller's transaction.
 */
final class PostgresInserts {
    private final SqlFile<JobSql> sql;
    private final PostgresSchema schema;
    private final PostgresConnections connections;

    PostgresInserts(SqlFile<JobSql> sql, PostgresSchema schema, PostgresConnections connections) {
        this.sql = sql;
        this.schema = schema;
        this.connections = connections;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        return connections.run("inserting jobs", c -> insert(c, jobs));
    }

    List<InsertResult> insertManyTx(Connection connection, List<JobInsertParams> jobs) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        try {
            return insert(connection, jobs);
        } catch (SQLException e) {
            throw connections.failure("inserting jobs on the caller's connection", e);
        }
    }

    /** Inserts {@code jobs} on {@code c}, in its transaction if it is in one. */
    List<InsertResult> insert(Connection c, List<JobInsertParams> jobs) throws SQLException {
        int n = jobs.size();
        String[] kinds = new String[n];
        String[] args = new String[n];
        String[] queues = new String[n];
        int[] priorities = new int[n];
        String[] states = new String[n];
        long[] createdAt = new long[n];
        long[] scheduledAt = new long[n];
        int[] maxAttempts = new int[n];
        String[] tags = new String[n];
        String[] metadata = new String[n];
        for (int i = 0; i < n; i++) {
            JobInsertParams job = jobs.get(i);
            kinds[i] = job.kind();
            args[i] = job.args();
            queues[i] = job.queue();
            priorities[i] = job.priority();
            states[i] = job.state().dbName();
            createdAt[i] = Times.toMicros(job.createdAt());
            scheduledAt[i] = Times.toMicros(job.scheduledAt());
            maxAttempts[i] = job.maxAttempts();
            tags[i] = JobJson.encodeStrings(job.tags());
            metadata[i] = job.metadata();
        }
        boolean unique = JobInsertParams.anyUnique(jobs);
        Sql q = sql.get(unique ? JobSql.JobInsertManyUnique : JobSql.JobInsertMany);
        try (PreparedStatement ps = c.prepareStatement(q.text())) {
            // pgjdbc binds a primitive array given to setObject as int4[] or int8[], unboxed.
            q.setArray(ps, KINDS, c.createArrayOf("text", kinds));
            q.setArray(ps, ARGS, c.createArrayOf("text", args));
            q.setArray(ps, QUEUES, c.createArrayOf("text", queues));
            q.setObject(ps, PRIORITIES, priorities);
            q.setArray(ps, STATES, c.createArrayOf("text", states));
            q.setObject(ps, CREATED_AT, createdAt);
            q.setObject(ps, SCHEDULED_AT, scheduledAt);
            q.setObject(ps, MAX_ATTEMPTS, maxAttempts);
            q.setArray(ps, TAGS, c.createArrayOf("text", tags));
            q.setArray(ps, METADATA, c.createArrayOf("text", metadata));
            if (unique) {
                byte[][] keys = new byte[n][];
                Integer[] masks = new Integer[n];
                for (int i = 0; i < n; i++) {
                    JobInsertParams job = jobs.get(i);
                    keys[i] = job.uniqueKey();
                    masks[i] = job.unique() ? job.uniqueStates() : null;
                }
                q.setArray(ps, UNIQUE_KEYS, c.createArrayOf("bytea", keys));
                q.setArray(ps, UNIQUE_STATES, c.createArrayOf("integer", masks));
            }
            q.setString(ps, CHANNEL, schema.channel());
            List<InsertResult> results = new ArrayList<>(n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    results.add(new InsertResult(rs.getLong(1), unique && rs.getBoolean(2)));
                }
            }
            if (results.size() != n) {
                throw new SQLException("inserted " + results.size() + " jobs of " + n);
            }
            return results;
        }
    }
}
