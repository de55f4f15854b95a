package dev.runnel.sqlite;

import dev.runnel.driver.SqlFile;
import java.util.List;

/** The statements of {@code job.sql}, and the parameters each binds. */
enum JobSql implements SqlFile.Statement {
    JobInsertMany(P.BATCH),
    JobInsertManyUniform(P.KIND, P.STATE, P.QUEUE, P.PRIORITY, P.MAX_ATTEMPTS, P.CREATED_AT, P.SCHEDULED_AT,
            P.TAGS, P.METADATA, P.BATCH),
    JobInsertReturning(P.KIND, P.ARGS, P.STATE, P.QUEUE, P.PRIORITY, P.MAX_ATTEMPTS, P.CREATED_AT,
            P.SCHEDULED_AT, P.TAGS, P.METADATA, P.UNIQUE_KEY, P.UNIQUE_STATES),
    JobUniqueHolder(P.UNIQUE_KEY),
    LastInsertId,
    JobClaim(P.NOW, P.CLIENT_ID, P.QUEUE, P.MAX, P.ONLY_CLIENT),
    JobClaimIds(P.NOW, P.CLIENT_ID, P.QUEUE, P.MAX, P.ONLY_CLIENT),
    JobClaimedRead(P.ONLY_CLIENT, P.IDS, P.NOW, P.CLIENT_ID),
    JobClaimLimited(P.NOW, P.CLIENT_ID, P.QUEUE, P.MAX, P.ONLY_CLIENT),
    JobClaimKeyed(P.NOW, P.CLIENT_ID, P.QUEUE, P.MAX, P.ONLY_CLIENT, P.KEY_LIMIT, P.KEY_RATE_SINCE, P.KEY_RATE_JOBS),
    KeyRateClaimed(P.IDS),
    KeyRateRead(P.QUEUE, P.KEY),
    KeyRateWrite(P.QUEUE, P.KEY, P.STARTS),
    QueueRateRead(P.QUEUE),
    QueueRateStarted(P.STARTS, P.QUEUE),
    JobClaimAtMostOnce(P.NOW, P.QUEUE, P.MAX),
    JobClaimRecover(P.QUEUE, P.NOW, P.CLIENT_ID),
    JobCompleteMany(P.BATCH, P.CLIENT_ID),
    JobCompleteDeleteMany(P.BATCH, P.CLIENT_ID),
    JobSetState(P.ID, P.STATE, P.SCHEDULED_AT, P.FINALIZED_AT, P.ATTEMPT_DELTA, P.ERROR, P.ATTEMPT,
            P.ATTEMPTED_AT, P.CLIENT_ID, P.OUTPUT),
    JobReinsert(P.ID, P.KIND, P.ARGS, P.STATE, P.QUEUE, P.PRIORITY, P.ATTEMPT, P.MAX_ATTEMPTS, P.ATTEMPTED_AT,
            P.ATTEMPTED_BY, P.CREATED_AT, P.SCHEDULED_AT, P.FINALIZED_AT, P.ERRORS, P.METADATA, P.TAGS),
    JobScheduleDue(P.NOW, P.LIMIT),
    JobRescueMany(P.DEAD_CLIENTS, P.NOW, P.STALE_BEFORE, P.LIMIT, P.MAX_RESCUES, P.NOW_TEXT, P.LEADER_ID,
            P.THRESHOLD),
    JobDeleteFinalized(P.STATE, P.BEFORE, P.LIMIT, P.LEADER_ID, P.NOW, P.MAX_ID),
    JobIdRange,
    JobCreatedAtFrom(P.ID);

    /** The parameters of {@code job.sql}'s statements. */
    enum P implements SqlFile.Param {
        BATCH, KIND, STATE, QUEUE, PRIORITY, MAX_ATTEMPTS, CREATED_AT, SCHEDULED_AT, TAGS, METADATA, ARGS,
        UNIQUE_KEY, UNIQUE_STATES, NOW, CLIENT_ID, MAX, KEY_LIMIT, KEY_RATE_SINCE, KEY_RATE_JOBS, IDS, KEY,
        STARTS, ID, FINALIZED_AT, ATTEMPT_DELTA, ERROR, ATTEMPT, ATTEMPTED_AT, OUTPUT, ATTEMPTED_BY, ERRORS,
        LIMIT, DEAD_CLIENTS, STALE_BEFORE, MAX_RESCUES, NOW_TEXT, LEADER_ID, THRESHOLD, BEFORE, MAX_ID, ONLY_CLIENT
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

