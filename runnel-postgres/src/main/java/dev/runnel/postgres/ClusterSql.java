package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code cluster.sql}, and the parameters each binds. */
enum ClusterSql implements SqlFile.Statement {
    ClientHeartbeat(P.ID, P.NOW, P.EXPIRES_AT, P.METADATA),
    ClientStop(P.NOW, P.ID),
    ClientList,
    ClientListDead(P.NOW),
    ClientMarkRescued(P.NOW, P.CLIENT_IDS, P.LEADER_ID),
    ClientDeleteExpired(P.EXPIRED_BEFORE, P.LEADER_ID, P.NOW),
    LeaderAttemptElect(P.LEADER_ID, P.NOW, P.EXPIRES_AT),
    LeaderResign(P.LEADER_ID),
    LeaderGet,
    QueueRegister(P.NOW, P.QUEUES),
    QueueList,
    QueuePause(P.NOW, P.QUEUE),
    QueueResume(P.NOW, P.QUEUE, P.CHANNEL),
    QueueSetGlobalLimit(P.LIMIT, P.NOW, P.QUEUE),
    QueueSetRateLimit(P.RATE_LIMIT, P.RATE_PERIOD_US, P.NOW, P.QUEUE),
    QueueSetKeyLimit(P.SOURCE, P.FIELD, P.LIMIT, P.WEIGHTS, P.RATE_LIMIT, P.RATE_PERIOD_US, P.NOW, P.QUEUE),
    QueueLimitsChanged(P.CHANNEL, P.MESSAGE),
    QueueKeyWaiting(P.QUEUE),
    QueueKeyStragglers(P.SINCE),
    QueueKeyRecent(P.SINCE);

    /** The parameters of {@code cluster.sql}'s statements. */
    enum P implements SqlFile.Param {
        ID, NOW, EXPIRES_AT, METADATA, CLIENT_IDS, LEADER_ID, EXPIRED_BEFORE, QUEUES, QUEUE, CHANNEL, LIMIT,
        RATE_LIMIT, RATE_PERIOD_US, SOURCE, FIELD, WEIGHTS, SINCE, MESSAGE
    }

    private final List<P> params;

    ClusterSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

