package dev.runnel.sqlite;

import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The periodic-job operations of {@link SqliteDriver}, from {@code periodic.sql}. Where Postgres
 * moves a job on and inserts its tick's job in one statement, this does it in one write
 * transaction: under SQLite's single writer nothing comes between the two.
 */
final class SqlitePeriodic {
    private static final Set<String> STATEMENTS = Set.of("PeriodicUpsert", "PeriodicStart", "PeriodicList",
            "PeriodicPause", "PeriodicResume", "PeriodicRemove", "PeriodicAdvance", "PeriodicTick");

    private final SqliteConnections connections;
    private final SqlFile sql;

    SqlitePeriodic(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("periodic.sql", SqlitePeriodic.class.getResourceAsStream("periodic.sql"), STATEMENTS);
    }

    boolean upsert(PeriodicUpsertParams p) {
        long now = Times.toMicros(p.now());
        return connections.writeTransaction(s -> {
            PreparedStatement upsert = s.prepare(sql.get("PeriodicUpsert"));
            upsert.setString(1, p.name());
            upsert.setString(2, p.kind());
            upsert.setString(3, p.args());
            upsert.setString(4, p.queue());
            upsert.setInt(5, p.priority());
            upsert.setInt(6, p.maxAttempts());
            upsert.setString(7, JobJson.encodeStrings(p.tags()));
            upsert.setString(8, p.metadata());
            upsert.setString(9, p.schedule());
            upsert.setString(10, p.zone());
            upsert.setString(11, p.catchUp().dbName());
            upsert.setBoolean(12, p.runOnStart());
            upsert.setString(13, p.hash());
            upsert.setString(14, p.declared() ? p.hash() : null);
            upsert.setLong(15, now);
            boolean stored;
            boolean start;
            try (ResultSet rs = upsert.executeQuery()) {
                stored = rs.next();
                start = stored && rs.getBoolean(1) && rs.getObject(2) == null;
            }
            if (start) {
                PreparedStatement insert = s.prepare(sql.get("PeriodicStart"));
                insert.setString(1, p.name());
                insert.setLong(2, now);
                insert.setString(3, p.now().toString());
                insert.executeUpdate();
            }
            return stored;
        });
    }

    List<PeriodicRow> list() {
        return connections.read(s -> {
            List<PeriodicRow> rows = new ArrayList<>();
            try (ResultSet rs = s.prepare(sql.get("PeriodicList")).executeQuery()) {
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
        return change(p.paused() ? "PeriodicPause" : "PeriodicResume", p.name(), p.now());
    }

    boolean remove(String name, Instant now) {
        return change("PeriodicRemove", name, now);
    }

    private boolean change(String statement, String name, Instant now) {
        return connections.write(s -> {
            PreparedStatement ps = s.prepare(sql.get(statement));
            ps.setLong(1, Times.toMicros(now));
            ps.setString(2, name);
            return ps.executeUpdate() > 0;
        });
    }

    boolean enqueue(PeriodicEnqueueParams p) {
        long now = Times.toMicros(p.lease().now());
        return connections.writeTransaction(s -> {
            PreparedStatement advance = s.prepare(sql.get("PeriodicAdvance"));
            advance.setLong(1, Times.toMicros(p.tick()));
            advance.setString(2, p.name());
            advance.setString(3, p.hash());
            advance.setLong(4, Times.toMicros(p.firedThrough()));
            advance.setString(5, p.lease().leaderId());
            advance.setLong(6, now);
            advance.setBoolean(7, p.enqueue());
            if (advance.executeUpdate() == 0) {
                return false;
            }
            if (p.enqueue()) {
                PreparedStatement tick = s.prepare(sql.get("PeriodicTick"));
                tick.setString(1, p.name());
                tick.setLong(2, now);
                tick.setString(3, p.tick().toString());
                tick.executeUpdate();
            }
            return true;
        });
    }
}
