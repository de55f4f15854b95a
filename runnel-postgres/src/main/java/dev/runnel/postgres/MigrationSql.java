package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code migration.sql}, and the parameters each binds. */
enum MigrationSql implements SqlFile.Statement {
    MigrationLock(P.KEY),
    SchemaExists(P.SCHEMA),
    SchemaCreate,
    MigrationTableCreate,
    MigrationTableExists,
    MigrationList,
    MigrationGet(P.VERSION),
    MigrationInsert(P.VERSION, P.NAME),
    MigrationDelete(P.VERSION),
    MigrationAnyApplied,
    MigrationTableDrop;

    /** The parameters of {@code migration.sql}'s statements. */
    enum P implements SqlFile.Param {
        KEY, SCHEMA, VERSION, NAME
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

