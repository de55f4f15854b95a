package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code admin.sql}, and the parameters each binds. */
enum AdminSql implements SqlFile.Statement {
    JobCancelMany(P.NOW, P.NOW_TEXT, P.REASON, P.IDS, P.CHANNEL),
    JobCancelRequested(P.IDS),
    JobRetryMany(P.NOW, P.IDS, P.CHANNEL),
    JobUniqueHolder(P.ID),
    JobDeleteMany(P.IDS),
    SearchIndexList(P.SCHEMA),
    SearchIndexKindCreate,
    SearchIndexArgsCreate,
    SearchIndexKindDrop,
    SearchIndexArgsDrop;

    /** The parameters of {@code admin.sql}'s statements. */
    enum P implements SqlFile.Param {
        NOW, NOW_TEXT, REASON, IDS, CHANNEL, ID, SCHEMA
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

