package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code migration.sql}, and the parameters each binds. */
enum MigrationSql implements SqlFile.Statement {
    MigrationTableCreate,
    MigrationTableExists,
    MigrationList,
    MigrationGet(P.VERSION),
    MigrationInsert(P.VERSION, P.NAME, P.APPLIED_AT),
    MigrationDelete(P.VERSION),
    MigrationAnyApplied,
    MigrationTableDrop;

    /** The parameters of {@code migration.sql}'s statements. */
    enum P implements SqlFile.Param {
        VERSION, NAME, APPLIED_AT
    }

    private final List<P> params;

    MigrationSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

