package dev.runnel.postgres;

import static dev.runnel.driver.AuditSql.P.*;

import dev.runnel.AuditRow;
import dev.runnel.driver.AuditSql;
import dev.runnel.driver.AuditInsertParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** The audit-log operations of {@link PostgresDriver}, from {@code audit.sql}. */
final class PostgresAudit {
    private final PostgresConnections connections;
    private final SqlFile<AuditSql> sql;

    PostgresAudit(PostgresSchema schema, PostgresConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("audit.sql", PostgresAudit.class.getResourceAsStream("audit.sql"),
                AuditSql.class).withSchema(schema.quoted());
    }

    long insert(AuditInsertParams p) {
        return connections.run("writing the audit log", c -> {
            Sql auditInsert = sql.get(AuditSql.AuditInsert);
            try (PreparedStatement ps = c.prepareStatement(auditInsert.text())) {
                auditInsert.setObject(ps, AT, PostgresJobs.timestamp(p.at()));
                auditInsert.setString(ps, ACTOR, p.actor());
                auditInsert.setString(ps, ACTION, p.action());
                auditInsert.setString(ps, TARGET, p.target());
                auditInsert.setLong(ps, COUNT, p.count());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    List<AuditRow> list(long beforeId, int limit) {
        return connections.run("reading the audit log", c -> {
            Sql auditList = sql.get(AuditSql.AuditList);
            try (PreparedStatement ps = c.prepareStatement(auditList.text())) {
                auditList.setLong(ps, BEFORE_ID, beforeId <= 0 ? Long.MAX_VALUE : beforeId);
                auditList.setInt(ps, LIMIT, limit);
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
