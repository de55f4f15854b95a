package dev.runnel.postgres;

import static dev.runnel.postgres.PeriodicSql.P.*;

import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The periodic-job operations of {@link PostgresDriver}, one statement each, from {@code periodic.sql}. */
final class PostgresPeriodic {
    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile<PeriodicSql> sql;

    PostgresPeriodic(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("periodic.sql", PeriodicSql.class.getResourceAsStream("periodic.sql"),
                PeriodicSql.class)
                .withSchema(schema.quoted());
    }

    boolean upsert(PeriodicUpsertParams p) {
        return connections.run("storing periodic job " + p.name(), c -> {
            Sql periodicUpsert = sql.get(PeriodicSql.PeriodicUpsert);
            try (PreparedStatement ps = c.prepareStatement(periodicUpsert.text())) {
                periodicUpsert.setString(ps, NAME, p.name());
                periodicUpsert.setString(ps, KIND, p.kind());
                periodicUpsert.setString(ps, ARGS, p.args());
                periodicUpsert.setString(ps, QUEUE, p.queue());
                periodicUpsert.setInt(ps, PRIORITY, p.priority());
                periodicUpsert.setInt(ps, MAX_ATTEMPTS, p.maxAttempts());
                periodicUpsert.setArray(ps, TAGS, c.createArrayOf("text", p.tags().toArray()));
                periodicUpsert.setString(ps, METADATA, p.metadata());
                periodicUpsert.setString(ps, SCHEDULE, p.schedule());
                periodicUpsert.setString(ps, ZONE, p.zone());
                periodicUpsert.setString(ps, CATCH_UP, p.catchUp().dbName());
                periodicUpsert.setBoolean(ps, RUN_ON_START, p.runOnStart());
                periodicUpsert.setString(ps, HASH, p.hash());
                periodicUpsert.setString(ps, DECLARED_HASH, p.declared() ? p.hash() : null);
                periodicUpsert.setObject(ps, NOW, PostgresJobs.timestamp(p.now()));
                periodicUpsert.setString(ps, NOW_TEXT, p.now().toString());
                periodicUpsert.setString(ps, CHANNEL, schema.channel());
                return count(ps) > 0;
            }
        });
    }

    List<PeriodicRow> list() {
        return connections.run("listing periodic jobs", c -> {
            Sql periodicList = sql.get(PeriodicSql.PeriodicList);
            try (PreparedStatement ps = c.prepareStatement(periodicList.text()); ResultSet rs = ps.executeQuery()) {
                List<PeriodicRow> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new PeriodicRow(rs.getString(1), rs.getString(2), CompactJson.read(rs, 3),
                            rs.getString(4), rs.getInt(5), rs.getInt(6), PostgresRows.strings(rs, 7),
                            CompactJson.read(rs, 8), rs.getString(9), rs.getString(10),
                            PeriodicJob.CatchUp.fromDb(rs.getString(11)), rs.getBoolean(12), rs.getString(13),
                            rs.getBoolean(14), Optional.ofNullable(PostgresRows.instant(rs, 15)),
                            Optional.ofNullable(PostgresRows.instant(rs, 16)), PostgresRows.instant(rs, 17),
                            PostgresRows.instant(rs, 18), PostgresRows.instant(rs, 19)));
                }
                return rows;
            }
        });
    }

    boolean setPaused(PeriodicPauseParams p) {
        return change(p.paused() ? PeriodicSql.PeriodicPause : PeriodicSql.PeriodicResume,
                (p.paused() ? "pausing" : "resuming") + " periodic job " + p.name(), p.name(), p.now());
    }

    boolean remove(String name, Instant now) {
        return change(PeriodicSql.PeriodicRemove, "removing periodic job " + name, name, now);
    }

    /** One of the three statements that take a name and a time and change one row. */
    private boolean change(PeriodicSql statement, String operation, String name, Instant now) {
        return connections.run(operation, c -> {
            Sql q = sql.get(statement);
            try (PreparedStatement ps = c.prepareStatement(q.text())) {
                q.setObject(ps, NOW, PostgresJobs.timestamp(now));
                q.setString(ps, NAME, name);
                return ps.executeUpdate() > 0;
            }
        });
    }

    boolean enqueue(PeriodicEnqueueParams p) {
        return connections.run("enqueuing periodic job " + p.name(), c -> {
            Sql periodicEnqueue = sql.get(PeriodicSql.PeriodicEnqueue);
            try (PreparedStatement ps = c.prepareStatement(periodicEnqueue.text())) {
                periodicEnqueue.setObject(ps, TICK, PostgresJobs.timestamp(p.tick()));
                periodicEnqueue.setBoolean(ps, ENQUEUE, p.enqueue());
                periodicEnqueue.setString(ps, NAME, p.name());
                periodicEnqueue.setString(ps, HASH, p.hash());
                periodicEnqueue.setObject(ps, FIRED_THROUGH, PostgresJobs.timestamp(p.firedThrough()));
                periodicEnqueue.setString(ps, LEADER_ID, p.lease().leaderId());
                periodicEnqueue.setObject(ps, NOW, PostgresJobs.timestamp(p.lease().now()));
                periodicEnqueue.setString(ps, TICK_TEXT, p.tick().toString());
                periodicEnqueue.setString(ps, CHANNEL, schema.channel());
                return count(ps) > 0;
            }
        });
    }

    private static long count(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
