package dev.runnel.redis;

import dev.runnel.InsertResult;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.driver.ClaimOrder;
import dev.runnel.driver.DataRejectedException;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobDeleteFinalizedParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.JobQueuesDueParams;
import dev.runnel.driver.JobReinsertParams;
import dev.runnel.driver.JobRescueParams;
import dev.runnel.driver.JobScheduleParams;
import dev.runnel.driver.JobSetStateParams;
import dev.runnel.driver.RescuedJob;
import dev.runnel.driver.Times;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The job writes of the hot path and of maintenance, each one call of the function library. */
final class RedisJobs {
    private static final Logger log = LoggerFactory.getLogger(RedisJobs.class);

    /**
     * The most jobs one insert call carries: a script blocks the server while it runs, so a bulk
     * insert of a million jobs goes in calls of this many (each atomic, together not).
     */
    static final int INSERT_BATCH = 1_000;
    private static final int INSERT_WIDTH = 13;
    private static final int SET_WIDTH = 11;
    private static final int REINSERT_WIDTH = 17;

    private final RedisFunctions redis;

    RedisJobs(RedisFunctions redis) {
        this.redis = redis;
    }

    List<InsertResult> insertMany(List<JobInsertParams> jobs) {
        List<InsertResult> results = new ArrayList<>(jobs.size());
        for (int from = 0; from < jobs.size(); from += INSERT_BATCH) {
            List<JobInsertParams> batch = jobs.subList(from, Math.min(jobs.size(), from + INSERT_BATCH));
            String[] args = new String[1 + batch.size() * INSERT_WIDTH];
            args[0] = Integer.toString(batch.size());
            int i = 1;
            for (JobInsertParams job : batch) {
                long scheduled = Times.toMicros(job.scheduledAt());
                args[i++] = job.kind();
                args[i++] = job.args();
                args[i++] = job.queue();
                args[i++] = Integer.toString(job.priority());
                args[i++] = job.state().dbName();
                args[i++] = RedisEncoding.micros(job.createdAt());
                args[i++] = Long.toString(scheduled);
                args[i++] = RedisEncoding.sortable(scheduled);
                args[i++] = Integer.toString(job.maxAttempts());
                args[i++] = JobJson.encodeStrings(job.tags());
                args[i++] = job.metadata();
                args[i++] = job.unique() ? RedisEncoding.hex(job.uniqueKey()) : "";
                args[i++] = Integer.toString(job.uniqueStates());
            }
            List<?> reply = redis.call("runnel_insert_many", args);
            for (int r = 0; r < reply.size(); r += 2) {
                results.add(new InsertResult(RedisRows.number(reply.get(r)), RedisRows.number(reply.get(r + 1)) == 1));
            }
        }
        return results;
    }

    List<JobRow> claim(JobClaimParams p) {
        long now = Times.toMicros(p.now());
        // A limited claim is at least once (the builder refuses limits on an at-most-once queue);
        // the plain claim takes nothing from a queue with limits.
        boolean limited = p.limited() && !p.atMostOnce();
        List<?> reply = redis.call(limited ? "runnel_claim_limited" : "runnel_claim", p.queue(),
                Integer.toString(p.max()), Long.toString(now), RedisEncoding.sortable(now + 1), p.clientId(),
                JobJson.NODES.textNode(p.clientId()).toString(), p.atMostOnce() ? "1" : "0");
        List<?> fresh = (List<?>) reply.get(0);
        List<?> full = (List<?>) reply.get(1);
        List<?> broken = (List<?>) reply.get(2);
        if (!broken.isEmpty()) {
            log.warn("jobs {} of queue {} in Redis have hashes without their fields (written by hand or by an older"
                    + " version); they were taken out of the queue and left in the namespace's 'broken' set",
                    broken, p.queue());
        }
        List<JobRow> out = new ArrayList<>(fresh.size() / RedisRows.NEW_ROW + full.size() / RedisRows.CLAIMED_ROW);
        JobClaimParams.Rows claimed = p.rows();
        for (int i = 0; i + RedisRows.NEW_ROW <= fresh.size(); i += RedisRows.NEW_ROW) {
            out.add(RedisRows.decodeClaimedNew(fresh.subList(i, i + RedisRows.NEW_ROW), claimed));
        }
        for (int i = 0; i + RedisRows.CLAIMED_ROW <= full.size(); i += RedisRows.CLAIMED_ROW) {
            out.add(RedisRows.decodeClaimed(full.subList(i, i + RedisRows.CLAIMED_ROW), claimed));
        }
        out.sort(ClaimOrder.COMPARATOR);
        return out;
    }

    List<String> queuesDue(JobQueuesDueParams p) {
        if (p.queues().isEmpty()) {
            return List.of();
        }
        String[] args = new String[1 + p.queues().size()];
        args[0] = RedisEncoding.sortable(Times.toMicros(p.now()) + 1);
        for (int i = 0; i < p.queues().size(); i++) {
            args[i + 1] = p.queues().get(i);
        }
        List<String> due = new ArrayList<>();
        for (Object queue : redis.call("runnel_queues_due", args)) {
            due.add(RedisRows.string(queue));
        }
        return due;
    }

    List<JobRow> claimRecover(JobClaimParams p) {
        return RedisRows.decodeAll(redis.call("runnel_claim_recover", p.queue(), RedisEncoding.micros(p.now()),
                p.clientId()));
    }

    long[] completeMany(JobCompleteManyParams p) {
        if (p.size() == 0) {
            return new long[0];
        }
        String[] args = new String[2 + p.size() * 4];
        args[0] = p.clientId();
        args[1] = Integer.toString(p.size());
        for (int i = 0; i < p.size(); i++) {
            int b = 2 + i * 4;
            args[b] = Long.toString(p.ids()[i]);
            args[b + 1] = Long.toString(p.finalizedAtMicros()[i]);
            args[b + 2] = Integer.toString(p.attempts()[i]);
            args[b + 3] = Long.toString(p.attemptedAtMicros()[i]);
        }
        return ids(redis.call(p.delete() ? "runnel_complete_delete_many" : "runnel_complete_many", args));
    }

    long[] setStateMany(List<JobSetStateParams> updates) {
        if (updates.isEmpty()) {
            return new long[0];
        }
        for (JobSetStateParams u : updates) {
            // The rule the SQL drivers' tables check: the batch is refused whole, nothing written.
            if (u.state().isFinal() != (u.finalizedAt() != null)) {
                throw new DataRejectedException("job " + u.id() + ": finalized_at must be set exactly when the state"
                        + " is final, and the outcome " + u.state().dbName() + " has "
                        + (u.finalizedAt() == null ? "none" : u.finalizedAt()), null);
            }
        }
        String[] args = new String[1 + updates.size() * SET_WIDTH];
        args[0] = Integer.toString(updates.size());
        int i = 1;
        for (JobSetStateParams u : updates) {
            args[i++] = Long.toString(u.id());
            args[i++] = Integer.toString(u.attempt());
            args[i++] = RedisEncoding.micros(u.attemptedAt());
            args[i++] = u.clientId();
            args[i++] = u.state().dbName();
            args[i++] = u.scheduledAt() == null ? "" : RedisEncoding.micros(u.scheduledAt());
            args[i++] = u.scheduledAt() == null ? "" : RedisEncoding.sortable(u.scheduledAt());
            args[i++] = u.finalizedAt() == null ? "" : RedisEncoding.micros(u.finalizedAt());
            args[i++] = u.error() == null ? "" : u.error();
            args[i++] = Integer.toString(u.attemptDelta());
            args[i++] = u.output() == null ? "" : u.output();
        }
        return ids(redis.call("runnel_set_state_many", args));
    }

    void reinsertMany(List<JobReinsertParams> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        String[] args = new String[1 + jobs.size() * REINSERT_WIDTH];
        args[0] = Integer.toString(jobs.size());
        int i = 1;
        for (JobReinsertParams r : jobs) {
            JobRow job = r.job();
            args[i++] = Long.toString(job.id());
            args[i++] = job.kind();
            args[i++] = job.args();
            args[i++] = r.state().dbName();
            args[i++] = job.queue();
            args[i++] = Integer.toString(job.priority());
            args[i++] = Integer.toString(job.attempt());
            args[i++] = Integer.toString(job.maxAttempts());
            args[i++] = job.attemptedAt().map(RedisEncoding::micros).orElse("");
            args[i++] = JobJson.encodeStrings(job.attemptedBy());
            args[i++] = RedisEncoding.micros(job.createdAt());
            args[i++] = RedisEncoding.micros(job.scheduledAt());
            args[i++] = RedisEncoding.sortable(job.scheduledAt());
            args[i++] = RedisEncoding.micros(r.finalizedAt());
            args[i++] = r.errorsJson();
            args[i++] = job.metadata();
            args[i++] = JobJson.encodeStrings(job.tags());
        }
        redis.callLong("runnel_reinsert_many", args);
    }

    int scheduleDue(JobScheduleParams p) {
        List<?> reply = redis.call("runnel_schedule_due", RedisEncoding.micros(p.now()),
                Integer.toString(p.limit()));
        return (int) RedisRows.number(reply.get(0));
    }

    List<RescuedJob> rescueMany(JobRescueParams p) {
        List<String> args = new ArrayList<>(8 + p.deadClients().size());
        args.add(p.lease().leaderId());
        args.add(RedisEncoding.micros(p.lease().now()));
        args.add(p.lease().now().toString());
        args.add(RedisEncoding.sortable(p.lease().now()));
        args.add(RedisEncoding.micros(p.staleBefore()));
        args.add(p.threshold().toString());
        args.add(Integer.toString(p.maxRescues()));
        args.add(Integer.toString(p.limit()));
        args.addAll(p.deadClients());
        List<?> reply = redis.call("runnel_rescue_many", args.toArray(String[]::new));
        List<RescuedJob> rescued = new ArrayList<>(reply.size() / 3);
        for (int i = 0; i < reply.size(); i += 3) {
            rescued.add(new RescuedJob(RedisRows.number(reply.get(i)), JobState.fromDb(reply.get(i + 1).toString()),
                    reply.get(i + 2).toString()));
        }
        return rescued;
    }

    int deleteFinalized(JobDeleteFinalizedParams p) {
        return (int) redis.callLong("runnel_delete_finalized", p.lease().leaderId(),
                RedisEncoding.micros(p.lease().now()), p.state().dbName(), RedisEncoding.micros(p.finalizedBefore()),
                Integer.toString(p.limit()));
    }

    static long[] ids(Object reply) {
        List<?> list = (List<?>) reply;
        long[] ids = new long[list.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = RedisRows.number(list.get(i));
        }
        return ids;
    }
}
