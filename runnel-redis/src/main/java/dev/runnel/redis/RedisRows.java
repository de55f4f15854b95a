package dev.runnel.redis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.driver.JobJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the rows the function library returns: a whole row is the id followed by the library's
 * {@code ROW} fields, a claimed one the id followed by its {@code CLAIMED} fields, or by its
 * {@code CLAIMED_NEW} fields when the claim took it as inserted. A job's output
 * and snooze count are fields of their own in Redis (so that no script rewrites the metadata's
 * JSON) and are merged into the metadata here, under the keys the SQL drivers keep them.
 */
final class RedisRows {
    private static final Logger log = LoggerFactory.getLogger(RedisRows.class);

    /**
     * The values of one claimed job in a claim's list of full rows, which holds all of them one
     * after another: its id and the first 13 of the library's {@code CLAIMED} fields.
     */
    static final int CLAIMED_ROW = 14;
    /**
     * The values of one job claimed as inserted in a claim's list of new rows: its id and the
     * library's {@code CLAIMED_NEW} fields.
     */
    static final int NEW_ROW = 8;

    private RedisRows() {}

    /** Whole rows; a job whose hash lacks fields is logged by id and left out. */
    static List<JobRow> decodeAll(Object reply) {
        List<?> rows = (List<?>) reply;
        List<JobRow> out = new ArrayList<>(rows.size());
        for (Object r : rows) {
            JobRow row = decode((List<?>) r);
            if (row != null) {
                out.add(row);
            }
        }
        return out;
    }

    /** A whole row, or null (logged) when its hash lacks fields or holds malformed values. */
    static JobRow decode(List<?> v) {
        long id = number(v.get(0));
        try {
            return new JobRow(
                    id,
                    required(v, 1, "kind"),
                    required(v, 2, "args"),
                    JobState.fromDb(required(v, 3, "state")),
                    required(v, 4, "queue"),
                    Integer.parseInt(required(v, 5, "priority")),
                    Integer.parseInt(required(v, 6, "attempt")),
                    Integer.parseInt(required(v, 7, "max_attempts")),
                    Optional.ofNullable(RedisEncoding.instant(v.get(8))),
                    JobJson.decodeStrings(string(v.get(9))),
                    RedisEncoding.instant(required(v, 10, "created_at")),
                    RedisEncoding.instant(required(v, 11, "scheduled_at")),
                    Optional.ofNullable(RedisEncoding.instant(v.get(12))),
                    JobJson.decodeErrors(string(v.get(13))),
                    metadata(string(v.get(14)), v.get(16), v.get(17)),
                    JobJson.decodeStrings(string(v.get(15))));
        } catch (RuntimeException e) {
            log.warn("job {} in Redis is malformed and left out: {}", id, e.getMessage());
            return null;
        }
    }

    /**
     * A row a claim returned ({@link #CLAIMED_ROW} values): the id, then the library's CLAIMED
     * fields; attempted_by, errors, metadata and tags come back nil while they are empty.
     */
    static JobRow decodeClaimed(List<?> v, JobClaimParams.Rows claim) {
        return claimed(v, claim, JobJson.decodeStrings(string(v.get(6))), 7, JobJson.decodeErrors(string(v.get(9))),
                metadata(string(v.get(10)), v.get(12), v.get(13)), JobJson.decodeStrings(string(v.get(11))));
    }

    /**
     * A row of a job a claim took as inserted ({@link #NEW_ROW} values): the id, kind, args,
     * priority, attempt, max_attempts, created_at and scheduled_at. Such a job has no errors,
     * metadata, tags or output, and no client before this one.
     */
    static JobRow decodeClaimedNew(List<?> v, JobClaimParams.Rows claim) {
        return claimed(v, claim, List.of(), 6, List.of(), null, List.of());
    }

    /**
     * A claimed job from the id, kind, args, priority, attempt and max_attempts at the start of
     * {@code v}, created_at and scheduled_at at {@code times} and the place after it, and the rest.
     */
    private static JobRow claimed(List<?> v, JobClaimParams.Rows claim, List<String> attemptedBy, int times,
            List<JobError> errors, String metadata, List<String> tags) {
        return claim.row(
                number(v.get(0)),
                string(v.get(1)),
                string(v.get(2)),
                Integer.parseInt(string(v.get(3))),
                (int) number(v.get(4)),
                Integer.parseInt(string(v.get(5))),
                attemptedBy,
                RedisEncoding.instant(v.get(times)),
                RedisEncoding.instant(v.get(times + 1)),
                errors,
                metadata,
                tags);
    }

    /** The metadata with the output and snooze count, where there are any, merged in. */
    static String metadata(String metadata, Object output, Object snoozes) {
        String base = metadata == null ? "{}" : metadata;
        if (output == null && snoozes == null) {
            return base;
        }
        ObjectNode node = (ObjectNode) JobJson.readTree(base);
        if (output != null) {
            node.set(JobJson.OUTPUT_KEY, JobJson.readTree(output.toString()));
        }
        if (snoozes != null) {
            node.put(JobJson.SNOOZES_KEY, Integer.parseInt(snoozes.toString()));
        }
        return node.toString();
    }

    static long number(Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(value.toString());
    }

    static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static String required(List<?> v, int index, String field) {
        Object value = v.get(index);
        if (value == null) {
            throw new RunnelException("its hash has no field " + field);
        }
        return value.toString();
    }

    static Instant requiredInstant(Object value, String what) {
        if (value == null) {
            throw new RunnelException(what + " is missing");
        }
        return RedisEncoding.instant(value);
    }
}
