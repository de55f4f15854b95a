package dev.runnel.postgres;

import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.driver.PeriodicEnqueueParams;
import dev.runnel.driver.PeriodicPauseParams;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The periodic-job operations of {@link PostgresDriver}, one statement each, from {@code periodic.sql}. */
final class PostgresPeriodic {
    private static final Set<String> STATEMENTS = Set.of("PeriodicUpsert", "PeriodicList", "PeriodicPause",
            "PeriodicResume", "PeriodicRemove", "PeriodicEnqueue");

    private final PostgresSchema schema;
    private final PostgresConnections connections;
    private final SqlFile sql;

    PostgresPeriodic(PostgresSchema schema, PostgresConnections connections) {
        this.schema = schema;
        this.connections = connections;
        this.sql = SqlFile.parse("periodic.sql", PostgresPeriodic.class.getResourceAsStream("periodic.sql"), STATEMENTS)
                .withSchema(schema.quoted());
    }

    boolean upsert(PeriodicUpsertParams p) {
        return connections.run("storing periodic job " + p.name(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("PeriodicUpsert"))) {
                ps.setString(1, p.name());
                ps.setString(2, p.kind());
                ps.setString(3, p.args());
                ps.setString(4, p.queue());
                ps.setInt(5, p.priority());
                ps.setInt(6, p.maxAttempts());
                ps.setArray(7, c.createArrayOf("text", p.tags().toArray()));
                ps.setString(8, p.metadata());
                ps.setString(9, p.schedule());
                ps.setString(10, p.zone());
                ps.setString(11, p.catchUp().dbName());
                ps.setBoolean(12, p.runOnStart());
                ps.setString(13, p.hash());
                ps.setString(14, p.declared() ? p.hash() : null);
                for (int i = 15; i <= 19; i++) {
                    ps.setObject(i, PostgresJobs.timestamp(p.now()));
                }
                ps.setString(20, p.now().toString());
                ps.setString(21, schema.channel());
                return count(ps) > 0;
            }
        });
    }

    List<PeriodicRow> list() {
        return connections.run("listing periodic jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("PeriodicList")); ResultSet rs = ps.executeQuery()) {
                List<PeriodicRow> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new PeriodicRow(rs.getString(1), rs.getString(2), CompactJson.of(rs.getString(3)),
                            rs.getString(4), rs.getInt(5), rs.getInt(6), PostgresRows.strings(rs, 7),
                            CompactJson.of(rs.getString(8)), rs.getString(9), rs.getString(10),
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
        return change(p.paused() ? "PeriodicPause" : "PeriodicResume",
                (p.paused() ? "pausing" : "resuming") + " periodic job " + p.name(), p.name(), p.now());
    }

    boolean remove(String name, Instant now) {
        return change("PeriodicRemove", "removing periodic job " + name, name, now);
    }

    /** One of the three statements that take (now, now, name) and change one row. */
    private boolean change(String statement, String operation, String name, Instant now) {
        return connections.run(operation, c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get(statement))) {
                ps.setObject(1, PostgresJobs.timestamp(now));
                ps.setObject(2, PostgresJobs.timestamp(now));
                ps.setString(3, name);
                return ps.executeUpdate() > 0;
            }
        });
    }

    boolean enqueue(PeriodicEnqueueParams p) {
        return connections.run("enqueuing periodic job " + p.name(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("PeriodicEnqueue"))) {
                ps.setObject(1, PostgresJobs.timestamp(p.tick()));
                ps.setBoolean(2, p.enqueue());
                ps.setObject(3, PostgresJobs.timestamp(p.tick()));
                ps.setString(4, p.name());
                ps.setString(5, p.hash());
                ps.setObject(6, PostgresJobs.timestamp(p.firedThrough()));
                ps.setString(7, p.lease().leaderId());
                ps.setObject(8, PostgresJobs.timestamp(p.lease().now()));
                ps.setObject(9, PostgresJobs.timestamp(p.lease().now()));
                ps.setObject(10, PostgresJobs.timestamp(p.lease().now()));
                ps.setString(11, p.tick().toString());
                ps.setBoolean(12, p.enqueue());
                ps.setString(13, schema.channel());
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
