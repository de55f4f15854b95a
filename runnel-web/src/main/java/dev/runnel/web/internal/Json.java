package dev.runnel.web.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runnel.AuditRow;
import dev.runnel.BatchRow;
import dev.runnel.ClientRow;
import dev.runnel.JobError;
import dev.runnel.JobLinks;
import dev.runnel.JobRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The API's JSON: rows turned into plain maps by hand (field names in snake_case, as the database
 * and the CLI's --json have them; times as ISO-8601; absent values as null), so the wire format is
 * ours to keep stable rather than whatever a record's shape happens to be.
 */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {}

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The keys of object {@code node}, in their order. */
    static List<String> keys(JsonNode node) {
        List<String> keys = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** {@code json} indented for people; as it is when it does not parse. */
    static String pretty(String json) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            return json;
        }
    }

    /** {@code json} parsed, for embedding in a response as JSON rather than as a string. */
    static Object raw(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return json;
        }
    }

    static Map<String, Object> job(JobRow j) {
        Map<String, Object> m = common(j);
        m.put("args", raw(j.args()));
        m.put("metadata", raw(j.metadata()));
        m.put("output", j.output().map(Json::raw).orElse(null));
        m.put("errors", j.errors().stream().map(Json::error).toList());
        return m;
    }

    /** What a job and its preview both carry: all but its args, metadata, output and errors. */
    private static Map<String, Object> common(JobRow j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", j.id());
        m.put("kind", j.kind());
        m.put("state", j.state().dbName());
        m.put("queue", j.queue());
        m.put("priority", j.priority());
        m.put("attempt", j.attempt());
        m.put("max_attempts", j.maxAttempts());
        m.put("tags", j.tags());
        m.put("attempted_by", j.attemptedBy());
        m.put("created_at", j.createdAt().toString());
        m.put("scheduled_at", j.scheduledAt().toString());
        m.put("attempted_at", time(j.attemptedAt()));
        m.put("finalized_at", time(j.finalizedAt()));
        return m;
    }

    /**
     * A job as a listing carries it: what {@link #job} has, but its args, output and last error
     * cut to {@link Views#PREVIEW} characters each (see {@link #preview}), and neither its
     * metadata nor its errors' traces: {@code GET /api/jobs/{id}} returns the whole job.
     */
    static Map<String, Object> jobPreview(JobRow j) {
        Map<String, Object> m = common(j);
        m.put("args_preview", preview(j.args()));
        m.put("output_preview", j.output().map(Json::preview).orElse(null));
        m.put("error_count", j.errors().size());
        m.put("last_error", j.errors().isEmpty() ? null : errorPreview(j.errors().getLast()));
        return m;
    }

    /**
     * {@code text} as a listing shows it: {@code {"text": its first characters, "truncated": whether
     * some are left out, "size": its whole length in bytes of UTF-8}}.
     */
    static Map<String, Object> preview(String text) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", Views.cut(text));
        m.put("truncated", Views.cuts(text));
        m.put("size", Views.utf8Length(text));
        return m;
    }

    private static Map<String, Object> errorPreview(JobError e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", e.attempt());
        m.put("at", e.at().toString());
        m.put("message_preview", preview(e.message()));
        return m;
    }

    static Map<String, Object> error(JobError e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", e.attempt());
        m.put("at", e.at().toString());
        m.put("message", e.message());
        m.put("trace", e.trace());
        return m;
    }

    static Map<String, Object> queue(QueueRow q, Map<String, Long> counts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", q.name());
        m.put("paused", q.paused());
        m.put("paused_at", time(q.pausedAt()));
        m.put("created_at", q.createdAt().toString());
        m.put("updated_at", q.updatedAt().toString());
        m.put("global_limit", q.globalLimit().isPresent() ? q.globalLimit().getAsInt() : null);
        m.put("counts", counts);
        return m;
    }

    static Map<String, Object> client(ClientRow c, Instant now, boolean leader) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        m.put("alive", c.aliveAt(now));
        m.put("leader", leader);
        m.put("started_at", c.startedAt().toString());
        m.put("heartbeat_at", c.heartbeatAt().toString());
        m.put("expires_at", c.expiresAt().toString());
        m.put("stopped_at", time(c.stoppedAt()));
        m.put("metadata", raw(c.metadata()));
        return m;
    }

    static Map<String, Object> periodic(PeriodicRow p, Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", p.name());
        m.put("kind", p.kind());
        m.put("queue", p.queue());
        m.put("schedule", p.schedule());
        m.put("zone", p.zone());
        m.put("paused", p.paused());
        m.put("next_run", time(Views.nextRun(p, now)));
        m.put("last_tick", time(p.lastTick()));
        m.put("args", raw(p.args()));
        return m;
    }

    static Map<String, Object> audit(AuditRow a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", a.id());
        m.put("at", a.at().toString());
        m.put("actor", a.actor());
        m.put("action", a.action());
        m.put("target", a.target());
        m.put("count", a.count());
        return m;
    }

    /** A workflow with its tasks counted by state (every state, 0 when none, and {@code deleted}). */
    static Map<String, Object> workflow(WorkflowRow w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", w.id());
        m.put("name", w.name());
        m.put("state", Views.word(w.state()));
        m.put("created_at", w.createdAt().toString());
        m.put("task_count", w.taskCount());
        Map<String, Object> counts = new LinkedHashMap<>();
        for (dev.runnel.JobState s : Views.TASK_STATES) {
            counts.put(s.dbName(), Views.tasksIn(w, s));
        }
        counts.put("deleted", w.deletedTasks());
        m.put("counts", counts);
        return m;
    }

    /** A workflow's task: {@code state} null once its job was deleted. */
    static Map<String, Object> task(WorkflowTaskRow t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("job_id", t.jobId());
        m.put("kind", t.kind());
        m.put("state", t.state().map(dev.runnel.JobState::dbName).orElse(null));
        m.put("after", t.after());
        m.put("on_dependency_failure", t.onDependencyFailure().name().toLowerCase(java.util.Locale.ROOT));
        m.put("output", t.output().map(Json::raw).orElse(null));
        return m;
    }

    /** A batch: its counts, whether it is complete, and its callback jobs inserted so far (null while not). */
    static Map<String, Object> batch(BatchRow b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", b.id());
        m.put("name", b.name().orElse(null));
        m.put("created_at", b.createdAt().toString());
        m.put("total", b.total());
        m.put("completed", b.completed());
        m.put("cancelled", b.cancelled());
        m.put("discarded", b.discarded());
        m.put("deleted", b.deleted());
        m.put("unfinished", b.unfinished());
        m.put("complete", b.isComplete());
        Map<String, Object> callbacks = new LinkedHashMap<>();
        callbacks.put("success", b.successJob().orElse(null));
        callbacks.put("complete", b.completeJob().orElse(null));
        callbacks.put("discard", b.discardJob().orElse(null));
        m.put("callback_jobs", callbacks);
        return m;
    }

    /** What ties a job to others: null fields where it has no such tie. */
    static Map<String, Object> links(JobLinks l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workflow_id", l.workflowId().orElse(null));
        m.put("task", l.task().orElse(null));
        m.put("batch_id", l.batchId().orElse(null));
        m.put("sequence", l.sequenceKey().orElse(null));
        m.put("waits_for", l.waitsFor());
        m.put("waited_on_by", l.waitedOnBy());
        return m;
    }

    static List<Map<String, Object>> jobPreviews(List<JobRow> rows) {
        return rows.stream().map(Json::jobPreview).toList();
    }

    private static String time(Optional<Instant> t) {
        return t.map(Instant::toString).orElse(null);
    }
}
