package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code periodic.sql}, and the parameters each binds. */
enum PeriodicSql implements SqlFile.Statement {
    PeriodicUpsert(P.NAME, P.KIND, P.ARGS, P.QUEUE, P.PRIORITY, P.MAX_ATTEMPTS, P.TAGS, P.METADATA, P.SCHEDULE,
            P.ZONE, P.CATCH_UP, P.RUN_ON_START, P.HASH, P.DECLARED_HASH, P.NOW),
    PeriodicStart(P.NAME, P.NOW, P.NOW_TEXT),
    PeriodicList,
    PeriodicPause(P.NOW, P.NAME),
    PeriodicResume(P.NOW, P.NAME),
    PeriodicRemove(P.NOW, P.NAME),
    PeriodicAdvance(P.TICK, P.NAME, P.HASH, P.FIRED_THROUGH, P.LEADER_ID, P.NOW, P.ENQUEUE),
    PeriodicTick(P.NAME, P.NOW, P.TICK_TEXT);

    /** The parameters of {@code periodic.sql}'s statements. */
    enum P implements SqlFile.Param {
        NAME, KIND, ARGS, QUEUE, PRIORITY, MAX_ATTEMPTS, TAGS, METADATA, SCHEDULE, ZONE, CATCH_UP,
        RUN_ON_START, HASH, DECLARED_HASH, NOW, NOW_TEXT, TICK, FIRED_THROUGH, LEADER_ID, ENQUEUE, TICK_TEXT
    }

    private final List<P> params;

    PeriodicSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

