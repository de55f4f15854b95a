package dev.runnel.bench;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code contention.sql}, and the parameters each binds. */
enum ContentionSql implements SqlFile.Statement {
    SlowTable,
    SlowWrite(P.BEGAN_AT),
    NoBusyTimeout;

    /** The parameters of {@code contention.sql}'s statements. */
    enum P implements SqlFile.Param {
        BEGAN_AT
    }

    private final List<P> params;

    ContentionSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

