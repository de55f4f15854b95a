package dev.runnel.sqlite;

import static dev.runnel.driver.AuditSql.P.*;

import dev.runnel.AuditRow;
import dev.runnel.driver.AuditSql;
import dev.runnel.driver.AuditInsertParams;
import dev.runnel.driver.Sql;
import dev.runnel.driver.SqlFile;
import dev.runnel.driver.Times;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** The audit-log operations of {@link SqliteDriver}, from {@code audit.sql}. */
final class SqliteAudit {
    private final SqliteConnections connections;
    private final SqlFile<AuditSql> sql;

    SqliteAudit(SqliteConnections connections) {
        this.connections = connections;
        this.sql = SqlFile.parse("audit.sql", SqliteAudit.class.getResourceAsStream("audit.sql"), AuditSql.class);
    }

    long insert(AuditInsertParams p) {
        return connections.write(s -> {
            Sql auditInsert = sql.get(AuditSql.AuditInsert);
            PreparedStatement ps = s.prepare(auditInsert.text());
            auditInsert.setLong(ps, AT, Times.toMicros(p.at()));
            auditInsert.setString(ps, ACTOR, p.actor());
            auditInsert.setString(ps, ACTION, p.action());
            auditInsert.setString(ps, TARGET, p.target());
            auditInsert.setLong(ps, COUNT, p.count());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    List<AuditRow> list(long beforeId, int limit) {
        return connections.read(s -> {
            Sql auditList = sql.get(AuditSql.AuditList);
            PreparedStatement ps = s.prepare(auditList.text());
            auditList.setLong(ps, BEFORE_ID, beforeId <= 0 ? Long.MAX_VALUE : beforeId);
            auditList.setInt(ps, LIMIT, limit);
            List<AuditRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AuditRow(rs.getLong(1), Times.fromMicros(rs.getLong(2)), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getLong(6)));
                }
            }
            return rows;
        });
    }
}
