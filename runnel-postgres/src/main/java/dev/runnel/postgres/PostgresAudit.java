package dev.runnel.postgres;

import dev.runnel.AuditRow;
import dev.runnel.driver.AuditInsertParams;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The audit-log operations of {@link PostgresDriver}, from {@code audit.sql}. */
final class PostgresAudit {
    private final PostgresConnections connections;
    private final SqlFile sql;

    PostgresAudit(PostgresSchema schema, PostgresConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("audit.sql", PostgresAudit.class.getResourceAsStream("audit.sql"),
                Set.of("AuditInsert", "AuditList")).withSchema(schema.quoted());
    }

    long insert(AuditInsertParams p) {
        return connections.run("writing the audit log", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("AuditInsert"))) {
                ps.setObject(1, PostgresJobs.timestamp(p.at()));
                ps.setString(2, p.actor());
                ps.setString(3, p.action());
                ps.setString(4, p.target());
                ps.setLong(5, p.count());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    List<AuditRow> list(long beforeId, int limit) {
        return connections.run("reading the audit log", c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.get("AuditList"))) {
                ps.setLong(1, beforeId <= 0 ? Long.MAX_VALUE : beforeId);
                ps.setInt(2, limit);
                List<AuditRow> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new AuditRow(rs.getLong(1), PostgresRows.instant(rs, 2), rs.getString(3),
                                rs.getString(4), rs.getString(5), rs.getLong(6)));
                    }
                }
                return rows;
            }
        });
    }
}
