package dev.runnel.postgres;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code job.sql}, and the parameters each binds. */
enum JobSql implements SqlFile.Statement {
    JobInsertMany(P.KINDS, P.ARGS, P.QUEUES, P.PRIORITIES, P.STATES, P.CREATED_AT, P.SCHEDULED_AT,
            P.MAX_ATTEMPTS, P.TAGS, P.METADATA, P.CHANNEL),
    JobInsertManyUnique(P.KINDS, P.ARGS, P.QUEUES, P.PRIORITIES, P.STATES, P.CREATED_AT, P.SCHEDULED_AT,
            P.MAX_ATTEMPTS, P.TAGS, P.METADATA, P.UNIQUE_KEYS, P.UNIQUE_STATES, P.CHANNEL),
    GenericPlan,
    JobClaim(P.QUEUE, P.NOW, P.FROM_PRIORITY, P.FROM_SCHEDULED_AT, P.FROM_ID, P.MAX, P.CLIENT_ID),
    JobClaimLimitLock(P.QUEUE),
    QueueRateStarted(P.STARTS, P.QUEUE),
    JobClaimLimited(P.MAX, P.QUEUE, P.NOW, P.CLIENT_ID),
    JobClaimKeyed(P.QUEUE, P.MAX, P.KEY_RATE_SINCE, P.NOW, P.KEY_LIMIT, P.KEY_RATE_JOBS, P.CLIENT_ID),
    KeyRateStarted(P.QUEUE, P.NOW_US, P.IDS, P.KEY_RATE_JOBS),
    JobClaimAtMostOnce(P.QUEUE, P.NOW, P.FROM_PRIORITY, P.FROM_SCHEDULED_AT, P.FROM_ID, P.MAX),
    JobClaimRecover(P.QUEUE, P.NOW, P.CLIENT_ID),
    JobQueuesDue(P.QUEUES, P.NOW),
    JobCompleteMany(P.IDS, P.FINALIZED_AT, P.ATTEMPTS, P.ATTEMPTED_AT, P.CLIENT_ID),
    JobCompleteDeleteMany(P.IDS, P.ATTEMPTS, P.ATTEMPTED_AT, P.CLIENT_ID),
    JobSetStateMany(P.IDS, P.ATTEMPTS, P.ATTEMPTED_AT, P.CLIENT_IDS, P.STATES, P.SCHEDULED_AT, P.FINALIZED_AT,
            P.ERRORS, P.ATTEMPT_DELTAS, P.OUTPUTS, P.CHANNEL),
    JobReinsertMany(P.IDS, P.KINDS, P.ARGS, P.STATES, P.QUEUES, P.PRIORITIES, P.ATTEMPTS, P.MAX_ATTEMPTS,
            P.ATTEMPTED_AT, P.ATTEMPTED_BY, P.CREATED_AT, P.SCHEDULED_AT, P.FINALIZED_AT, P.ERRORS, P.METADATA,
            P.TAGS),
    JobScheduleDue(P.NOW, P.LIMIT, P.CHANNEL),
    JobRescueMany(P.DEAD_CLIENTS, P.NOW, P.STALE_BEFORE, P.LIMIT, P.MAX_RESCUES, P.NOW_TEXT, P.THRESHOLD,
            P.LEADER_ID),
    JobDeleteFinalized(P.STATE, P.FROM, P.BEFORE, P.LIMIT, P.LEADER_ID, P.NOW),
    JobGet(P.ID),
    JobGetMany(P.IDS),
    JobTableGrown,
    JobTableAnalyze;

    /** The parameters of {@code job.sql}'s statements. */
    enum P implements SqlFile.Param {
        KINDS, ARGS, QUEUES, PRIORITIES, STATES, CREATED_AT, SCHEDULED_AT, MAX_ATTEMPTS, TAGS, METADATA,
        CHANNEL, UNIQUE_KEYS, UNIQUE_STATES, QUEUE, NOW, FROM_PRIORITY, FROM_SCHEDULED_AT, FROM_ID, MAX,
        CLIENT_ID, STARTS, KEY_RATE_SINCE, KEY_LIMIT, KEY_RATE_JOBS, NOW_US, IDS, FINALIZED_AT, ATTEMPTS,
        ATTEMPTED_AT, CLIENT_IDS, ERRORS, ATTEMPT_DELTAS, OUTPUTS, ATTEMPTED_BY, LIMIT, DEAD_CLIENTS,
        STALE_BEFORE, MAX_RESCUES, NOW_TEXT, THRESHOLD, LEADER_ID, STATE, FROM, BEFORE, ID
    }

    private final List<P> params;

    JobSql(P... params) {
        this.params = List.of(params);
    }

    @Override
    public List<P> params() {
        return params;
    }
}

