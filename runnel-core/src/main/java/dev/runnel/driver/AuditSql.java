package dev.runnel.driver;

import java.util.List;

/**
 * The statements of a SQL driver's {@code audit.sql}, and the parameters each binds: the same two
 * statements in each driver's own dialect.
 */
public enum AuditSql implements SqlFile.Statement {
    AuditInsert(P.AT, P.ACTOR, P.ACTION, P.TARGET, P.COUNT),
    AuditList(P.BEFORE_ID, P.LIMIT);

    /** The parameters of {@code audit.sql}'s statements. */
    public enum P implements SqlFile.Param {
        AT, ACTOR, ACTION, TARGET, COUNT, BEFORE_ID, LIMIT
    }

    private final List<P> params;

    AuditSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

