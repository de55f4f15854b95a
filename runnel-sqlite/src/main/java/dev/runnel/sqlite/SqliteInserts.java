package dev.runnel.sqlite;

import static dev.runnel.sqlite.JobSql.P.*;

import dev.runnel.InsertResult;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.Sql;
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
    private final SqlFile<JobSql> sql;
    private final SqliteConnections connections;

    SqliteInserts(SqlFile<JobSql> sql, SqliteConnections connections) {
        this.sql = sql;
        this.connections = connections;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        if (JobInsertParams.anyUnique(jobs)) {
            // One job at a time, each told apart as written or duplicate; all under one writer lock.
            return connections.writeTransaction(s -> insertEach(s.prepare(sql.get(JobSql.JobInsertReturning).text()),
                    s.prepare(sql.get(JobSql.JobUniqueHolder).text()), jobs));
        }
        // One statement for the batch. Its ids are consecutive because the writer lock is held
        // and json_each inserts in array order, so the last id gives them all.
        boolean uniform = SqliteBatch.isUniform(jobs);
        String batch = uniform ? SqliteBatch.encodeArgs(jobs) : SqliteBatch.encode(jobs);
        return connections.write(s -> {
            PreparedStatement insert;
            if (uniform) {
                Sql jobInsertManyUniform = sql.get(JobSql.JobInsertManyUniform);
                insert = s.prepare(jobInsertManyUniform.text());
                JobInsertParams first = jobs.getFirst();
                jobInsertManyUniform.setString(insert, KIND, first.kind());
                jobInsertManyUniform.setString(insert, STATE, first.state().dbName());
                jobInsertManyUniform.setString(insert, QUEUE, first.queue());
                jobInsertManyUniform.setInt(insert, PRIORITY, first.priority());
                jobInsertManyUniform.setInt(insert, MAX_ATTEMPTS, first.maxAttempts());
                jobInsertManyUniform.setLong(insert, CREATED_AT, Times.toMicros(first.createdAt()));
                jobInsertManyUniform.setLong(insert, SCHEDULED_AT, Times.toMicros(first.scheduledAt()));
                jobInsertManyUniform.setString(insert, TAGS, JobJson.encodeStrings(first.tags()));
                jobInsertManyUniform.setString(insert, METADATA, first.metadata());
                jobInsertManyUniform.setString(insert, BATCH, batch);
            } else {
                Sql jobInsertMany = sql.get(JobSql.JobInsertMany);
                insert = s.prepare(jobInsertMany.text());
                jobInsertMany.setString(insert, BATCH, batch);
            }
            insert.executeUpdate();
            long last;
            try (ResultSet rs = s.prepare(sql.get(JobSql.LastInsertId).text()).executeQuery()) {
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
        try (PreparedStatement insert = connection.prepareStatement(sql.get(JobSql.JobInsertReturning).text());
                PreparedStatement holder = connection.prepareStatement(sql.get(JobSql.JobUniqueHolder).text())) {
            return insertEach(insert, holder, jobs);
        } catch (SQLException e) {
            throw new RunnelException("inserting jobs on the caller's connection failed: " + e.getMessage(), e);
        }
    }

    /** Inserts jobs one by one on {@code s}, inside its transaction. */
    List<InsertResult> insertEach(SqliteConnections.Session s, List<JobInsertParams> jobs) throws SQLException {
        return insertEach(s.prepare(sql.get(JobSql.JobInsertReturning).text()),
                s.prepare(sql.get(JobSql.JobUniqueHolder).text()), jobs);
    }

    private List<InsertResult> insertEach(PreparedStatement insert, PreparedStatement holder,
            List<JobInsertParams> jobs) throws SQLException {
        Sql insertSql = sql.get(JobSql.JobInsertReturning);
        Sql holderSql = sql.get(JobSql.JobUniqueHolder);
        List<InsertResult> results = new ArrayList<>(jobs.size());
        for (JobInsertParams job : jobs) {
            bindInsert(insertSql, insert, job);
            try (ResultSet rs = insert.executeQuery()) {
                if (rs.next()) {
                    results.add(new InsertResult(rs.getLong(1), false));
                    continue;
                }
            }
            holderSql.setBytes(holder, UNIQUE_KEY, job.uniqueKey());
            try (ResultSet rs = holder.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("a unique job was neither written nor found to have a holder");
                }
                results.add(new InsertResult(rs.getLong(1), true));
            }
        }
        return results;
    }

    private static void bindInsert(Sql q, PreparedStatement ps, JobInsertParams job) throws SQLException {
        q.setString(ps, KIND, job.kind());
        q.setString(ps, ARGS, job.args());
        q.setString(ps, STATE, job.state().dbName());
        q.setString(ps, QUEUE, job.queue());
        q.setInt(ps, PRIORITY, job.priority());
        q.setInt(ps, MAX_ATTEMPTS, job.maxAttempts());
        q.setLong(ps, CREATED_AT, Times.toMicros(job.createdAt()));
        q.setLong(ps, SCHEDULED_AT, Times.toMicros(job.scheduledAt()));
        q.setString(ps, TAGS, JobJson.encodeStrings(job.tags()));
        q.setString(ps, METADATA, job.metadata());
        q.setBytes(ps, UNIQUE_KEY, job.uniqueKey());
        if (job.unique()) {
            q.setInt(ps, UNIQUE_STATES, job.uniqueStates());
        } else {
            q.setNull(ps, UNIQUE_STATES, Types.INTEGER);
        }
    }
}
