package dev.runnel.bench;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code scenario.sql}, and the parameters each binds. */
enum ScenarioSql implements SqlFile.Statement {
    PgSleep,
    PgWarm;

    /** The parameters of {@code scenario.sql}'s statements. */
    enum P implements SqlFile.Param {}

    private final List<P> params;

    ScenarioSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

