package dev.runnel.bench;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code querybench.sql}, and the parameters each binds. */
enum QueryBenchSql implements SqlFile.Statement {
    Load(P.FROM_ID, P.TO_ID, P.TOTAL, P.FIRST_CREATED_AT, P.STEP_US),
    SetSequence(P.LAST_ID),
    Loaded,
    CountsExact;

    /** The parameters of {@code querybench.sql}'s statements. */
    enum P implements SqlFile.Param {
        FROM_ID, TO_ID, TOTAL, FIRST_CREATED_AT, STEP_US, LAST_ID
    }

    private final List<P> params;

    QueryBenchSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

