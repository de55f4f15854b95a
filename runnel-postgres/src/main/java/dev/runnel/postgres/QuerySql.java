package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code query.sql}, and the parameters each binds. */
enum QuerySql implements SqlFile.Statement {
    JobListAscending(P.FROM_ID, P.TO_ID, P.STATES, P.QUEUES, P.KINDS, P.TAGS, P.ARGS, P.CREATED_FROM,
            P.CREATED_BEFORE, P.LIMIT),
    JobListDescending(P.FROM_ID, P.TO_ID, P.STATES, P.QUEUES, P.KINDS, P.TAGS, P.ARGS, P.CREATED_FROM,
            P.CREATED_BEFORE, P.LIMIT),
    JobLastId,
    JobFirstAtOrAfter(P.ID),
    JobCountExact,
    JobCountNotCompleted,
    JobCountRunning,
    JobTablePages,
    JobCountSampled(P.PERCENT),
    JobCountSerial,
    JobCountTimeout(P.TIMEOUT);

    /** The parameters of {@code query.sql}'s statements. */
    enum P implements SqlFile.Param {
        FROM_ID, TO_ID, STATES, QUEUES, KINDS, TAGS, ARGS, CREATED_FROM, CREATED_BEFORE, LIMIT, ID, PERCENT,
        TIMEOUT
    }

    private final List<P> params;

    QuerySql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

