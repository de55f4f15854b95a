package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code admin.sql}, and the parameters each binds. */
enum AdminSql implements SqlFile.Statement {
    JobCancelMany(P.IDS, P.NOW, P.NOW_TEXT, P.REASON),
    JobCancelRequested(P.IDS),
    JobRetryMany(P.IDS, P.NOW),
    JobUniqueHolder(P.ID),
    JobDeleteMany(P.IDS);

    /** The parameters of {@code admin.sql}'s statements. */
    enum P implements SqlFile.Param {
        IDS, NOW, NOW_TEXT, REASON, ID
    }

    private final List<P> params;

    AdminSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

