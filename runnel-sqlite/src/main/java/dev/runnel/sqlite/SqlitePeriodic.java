package dev.runnel.sqlite;

import static dev.runnel.sqlite.PeriodicSql.P.*;

import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The periodic-job operations of {@link SqliteDriver}, from {@code periodic.sql}. Where Postgres
 * moves a job on and inserts its tick's job in one statement, this does it in one write
 * transaction: under SQLite's single writer nothing comes between the two.
 */
final class SqlitePeriodic {
    private final SqliteConnections connections;
    private final SqlFile<PeriodicSql> sql;

    SqlitePeriodic(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("periodic.sql", PeriodicSql.class.getResourceAsStream("periodic.sql"),
                PeriodicSql.class);
    }

    boolean upsert(PeriodicUpsertParams p) {
        long now = Times.toMicros(p.now());
        return connections.writeTransaction(s -> {
            Sql periodicUpsert = sql.get(PeriodicSql.PeriodicUpsert);
            PreparedStatement upsert = s.prepare(periodicUpsert.text());
            periodicUpsert.setString(upsert, NAME, p.name());
            periodicUpsert.setString(upsert, KIND, p.kind());
            periodicUpsert.setString(upsert, ARGS, p.args());
            periodicUpsert.setString(upsert, QUEUE, p.queue());
            periodicUpsert.setInt(upsert, PRIORITY, p.priority());
            periodicUpsert.setInt(upsert, MAX_ATTEMPTS, p.maxAttempts());
            periodicUpsert.setString(upsert, TAGS, JobJson.encodeStrings(p.tags()));
            periodicUpsert.setString(upsert, METADATA, p.metadata());
            periodicUpsert.setString(upsert, SCHEDULE, p.schedule());
            periodicUpsert.setString(upsert, ZONE, p.zone());
            periodicUpsert.setString(upsert, CATCH_UP, p.catchUp().dbName());
            periodicUpsert.setBoolean(upsert, RUN_ON_START, p.runOnStart());
            periodicUpsert.setString(upsert, HASH, p.hash());
            periodicUpsert.setString(upsert, DECLARED_HASH, p.declared() ? p.hash() : null);
            periodicUpsert.setLong(upsert, NOW, now);
            boolean stored;
            boolean start;
            try (ResultSet rs = upsert.executeQuery()) {
                stored = rs.next();
                start = stored && rs.getBoolean(1) && rs.getObject(2) == null;
            }
            if (start) {
                Sql periodicStart = sql.get(PeriodicSql.PeriodicStart);
                PreparedStatement insert = s.prepare(periodicStart.text());
                periodicStart.setString(insert, NAME, p.name());
                periodicStart.setLong(insert, NOW, now);
                periodicStart.setString(insert, NOW_TEXT, p.now().toString());
                insert.executeUpdate();
            }
            return stored;
        });
    }

    List<PeriodicRow> list() {
        return connections.read(s -> {
            List<PeriodicRow> rows = new ArrayList<>();
            Sql periodicList = sql.get(PeriodicSql.PeriodicList);
            try (ResultSet rs = s.prepare(periodicList.text()).executeQuery()) {
                while (rs.next()) {
                    rows.add(new PeriodicRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getInt(5), rs.getInt(6), JobJson.decodeStrings(rs.getString(7)), rs.getString(8),
                            rs.getString(9), rs.getString(10), PeriodicJob.CatchUp.fromDb(rs.getString(11)),
                            rs.getBoolean(12), rs.getString(13), rs.getBoolean(14), micros(rs, 15), micros(rs, 16),
                            Times.fromMicros(rs.getLong(17)), Times.fromMicros(rs.getLong(18)),
                            Times.fromMicros(rs.getLong(19))));
                }
            }
            return rows;
        });
    }

    private static Optional<Instant> micros(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Times.fromMicros(value));
    }

    boolean setPaused(PeriodicPauseParams p) {
        return change(p.paused() ? PeriodicSql.PeriodicPause : PeriodicSql.PeriodicResume, p.name(), p.now());
    }

    boolean remove(String name, Instant now) {
        return change(PeriodicSql.PeriodicRemove, name, now);
    }

    private boolean change(PeriodicSql statement, String name, Instant now) {
        return connections.write(s -> {
            Sql q = sql.get(statement);
            PreparedStatement ps = s.prepare(q.text());
            q.setLong(ps, NOW, Times.toMicros(now));
            q.setString(ps, NAME, name);
            return ps.executeUpdate() > 0;
        });
    }

    boolean enqueue(PeriodicEnqueueParams p) {
        long now = Times.toMicros(p.lease().now());
        return connections.writeTransaction(s -> {
            Sql periodicAdvance = sql.get(PeriodicSql.PeriodicAdvance);
            PreparedStatement advance = s.prepare(periodicAdvance.text());
            periodicAdvance.setLong(advance, TICK, Times.toMicros(p.tick()));
            periodicAdvance.setString(advance, NAME, p.name());
            periodicAdvance.setString(advance, HASH, p.hash());
            periodicAdvance.setLong(advance, FIRED_THROUGH, Times.toMicros(p.firedThrough()));
            periodicAdvance.setString(advance, LEADER_ID, p.lease().leaderId());
            periodicAdvance.setLong(advance, NOW, now);
            periodicAdvance.setBoolean(advance, ENQUEUE, p.enqueue());
            if (advance.executeUpdate() == 0) {
                return false;
            }
            if (p.enqueue()) {
                Sql periodicTick = sql.get(PeriodicSql.PeriodicTick);
                PreparedStatement tick = s.prepare(periodicTick.text());
                periodicTick.setString(tick, NAME, p.name());
                periodicTick.setLong(tick, NOW, now);
                periodicTick.setString(tick, TICK_TEXT, p.tick().toString());
                tick.executeUpdate();
            }
            return true;
        });
    }
}
