package dev.runnel.sqlite;

import dev.runnel.InsertResult;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** The SQLite driver's inserts: batches in one statement, unique jobs and a caller's transaction one by one. */
final class SqliteInserts {
    private final SqlFile sql;
    private final SqliteConnections connections;

    SqliteInserts(SqlFile sql, SqliteConnections connections) {
        this.sql = sql;
        this.connections = connections;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        if (JobInsertParams.anyUnique(jobs)) {
            // One job at a time, each told apart as written or duplicate; all under one writer lock.
            return connections.writeTransaction(s -> insertEach(s.prepare(sql.get("JobInsertReturning")),
                    s.prepare(sql.get("JobUniqueHolder")), jobs));
        }
        // One statement for the batch. Its ids are consecutive because the writer lock is held
        // and json_each inserts in array order, so the last id gives them all.
        boolean uniform = SqliteBatch.isUniform(jobs);
        String batch = uniform ? SqliteBatch.encodeArgs(jobs) : SqliteBatch.encode(jobs);
        return connections.write(s -> {
            PreparedStatement insert;
            if (uniform) {
                insert = s.prepare(sql.get("JobInsertManyUniform"));
                JobInsertParams first = jobs.getFirst();
                insert.setString(1, first.kind());
                insert.setString(2, first.state().dbName());
                insert.setString(3, first.queue());
                insert.setInt(4, first.priority());
                insert.setInt(5, first.maxAttempts());
                insert.setLong(6, Times.toMicros(first.createdAt()));
                insert.setLong(7, Times.toMicros(first.scheduledAt()));
                insert.setString(8, JobJson.encodeStrings(first.tags()));
                insert.setString(9, first.metadata());
                insert.setString(10, batch);
            } else {
                insert = s.prepare(sql.get("JobInsertMany"));
                insert.setString(1, batch);
            }
            insert.executeUpdate();
            long last;
            try (ResultSet rs = s.prepare(sql.get("LastInsertId")).executeQuery()) {
                rs.next();
                last = rs.getLong(1);
            }
            List<InsertResult> results = new ArrayList<>(jobs.size());
            for (int i = 0; i < jobs.size(); i++) {
                results.add(new InsertResult(last - jobs.size() + 1 + i, false));
            }
            return results;
        });
    }

    List<InsertResult> insertManyTx(Connection connection, List<JobInsertParams> jobs) {
        try (PreparedStatement insert = connection.prepareStatement(sql.get("JobInsertReturning"));
                PreparedStatement holder = connection.prepareStatement(sql.get("JobUniqueHolder"))) {
            return insertEach(insert, holder, jobs);
        } catch (SQLException e) {
            throw new RunnelException("inserting jobs on the caller's connection failed: " + e.getMessage(), e);
        }
    }

    private static List<InsertResult> insertEach(PreparedStatement insert, PreparedStatement holder,
            List<JobInsertParams> jobs) throws SQLException {
        List<InsertResult> results = new ArrayList<>(jobs.size());
        for (JobInsertParams job : jobs) {
            bindInsert(insert, job);
            try (ResultSet rs = insert.executeQuery()) {
                if (rs.next()) {
                    results.add(new InsertResult(rs.getLong(1), false));
                    continue;
                }
            }
            holder.setBytes(1, job.uniqueKey());
            try (ResultSet rs = holder.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("a unique job was neither written nor found to have a holder");
                }
                results.add(new InsertResult(rs.getLong(1), true));
            }
        }
        return results;
    }

    private static void bindInsert(PreparedStatement ps, JobInsertParams job) throws SQLException {
        ps.setString(1, job.kind());
        ps.setString(2, job.args());
        ps.setString(3, job.state().dbName());
        ps.setString(4, job.queue());
        ps.setInt(5, job.priority());
        ps.setInt(6, job.maxAttempts());
        ps.setLong(7, Times.toMicros(job.createdAt()));
        ps.setLong(8, Times.toMicros(job.scheduledAt()));
        ps.setString(9, JobJson.encodeStrings(job.tags()));
        ps.setString(10, job.metadata());
        ps.setBytes(11, job.uniqueKey());
        if (job.unique()) {
            ps.setInt(12, job.uniqueStates());
        } else {
            ps.setNull(12, Types.INTEGER);
        }
    }
}
