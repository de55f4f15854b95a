package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code audit.sql}, and the parameters each binds. */
enum AuditSql implements SqlFile.Statement {
    AuditInsert(P.AT, P.ACTOR, P.ACTION, P.TARGET, P.COUNT),
    AuditList(P.BEFORE_ID, P.LIMIT);

    /** The parameters of {@code audit.sql}'s statements. */
    enum P implements SqlFile.Param {
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

