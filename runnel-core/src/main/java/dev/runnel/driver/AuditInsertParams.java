package dev.runnel.driver;

import java.time.Instant;

/** An entry for the audit log ({@link Driver#auditInsert}); see {@link dev.runnel.AuditRow} for the fields. */
public record AuditInsertParams(Instant at, String actor, String action, String target, long count) {
    /** Targets longer than this are cut: a filter or a list of ids is for reading, not replaying. */
    public static final int MAX_TARGET = 2_000;

    public AuditInsertParams {
        if (at == null || actor == null || action == null || target == null) {
            throw new IllegalArgumentException("an audit entry's fields must not be null");
        }
        if (target.length() > MAX_TARGET) {
            target = target.substring(0, MAX_TARGET - 1) + "…";
        }
    }
}
