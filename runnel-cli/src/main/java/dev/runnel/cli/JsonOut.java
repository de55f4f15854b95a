package dev.runnel.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.BatchRow;
import dev.runnel.JobCount;
import dev.runnel.JobError;
import dev.runnel.JobRow;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The commands' JSON: jobs, queues, workflows and batches as a machine reads them, args and metadata as stored. */
final class JsonOut {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The metadata key that holds a completed job's output, as {@link JobRow#output()} reads it. */
    private static final String OUTPUT_KEY = "output";

    private JsonOut() {}

    static ObjectNode job(JobRow job) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", job.id());
        node.put("kind", job.kind());
        node.put("queue", job.queue());
        node.put("state", job.state().dbName());
        node.put("priority", job.priority());
        node.put("attempt", job.attempt());
        node.put("max_attempts", job.maxAttempts());
        node.set("args", raw(job.args()));
        node.put("created_at", job.createdAt().toString());
        node.put("scheduled_at", job.scheduledAt().toString());
        time(node, "attempted_at", job.attemptedAt());
        time(node, "finalized_at", job.finalizedAt());
        ArrayNode by = node.putArray("attempted_by");
        job.attemptedBy().forEach(by::add);
        ArrayNode errors = node.putArray("errors");
        for (JobError e : job.errors()) {
            ObjectNode error = errors.addObject();
            error.put("attempt", e.attempt());
            error.put("at", e.at().toString());
            error.put("error", e.message());
            error.put("trace", e.trace());
        }
        node.set("metadata", raw(job.metadata()));
        node.set("output", job.output().map(JsonOut::raw).orElse(MAPPER.getNodeFactory().nullNode()));
        ArrayNode tags = node.putArray("tags");
        job.tags().forEach(tags::add);
        return node;
    }

    /** The job's metadata without its output, which {@code jobs get} shows on a line of its own. */
    static JsonNode metadataBesidesOutput(JobRow job) {
        JsonNode metadata = raw(job.metadata());
        if (metadata instanceof ObjectNode object && job.output().isPresent()) {
            object.remove(OUTPUT_KEY);
        }
        return metadata;
    }

    static ArrayNode jobs(List<JobRow> jobs) {
        ArrayNode array = MAPPER.createArrayNode();
        jobs.forEach(j -> array.add(job(j)));
        return array;
    }

    /** Queues with their jobs counted by state. */
    static ArrayNode queues(List<QueueRow> queues, List<JobCount> counts) {
        ArrayNode array = MAPPER.createArrayNode();
        for (QueueRow q : queues) {
            ObjectNode node = array.addObject();
            node.put("name", q.name());
            node.put("paused", q.paused());
            if (q.globalLimit().isPresent()) {
                node.put("global_limit", q.globalLimit().getAsInt());
            } else {
                node.putNull("global_limit");
            }
            q.rateLimit().ifPresentOrElse(r -> {
                ObjectNode rate = node.putObject("rate_limit");
                rate.put("jobs", r.jobs());
                rate.put("period", r.period().toString());
            }, () -> node.putNull("rate_limit"));
            q.keyLimit().ifPresentOrElse(k -> {
                ObjectNode perKey = node.putObject("key_limit");
                perKey.put("source", k.sourceName());
                perKey.put("field", k.field());
                perKey.put("limit", k.limit());
                ObjectNode weights = perKey.putObject("weights");
                k.weights().forEach(weights::put);
                k.rate().ifPresentOrElse(r -> {
                    ObjectNode rate = perKey.putObject("rate");
                    rate.put("jobs", r.jobs());
                    rate.put("period", r.period().toString());
                }, () -> perKey.putNull("rate"));
            }, () -> node.putNull("key_limit"));
            time(node, "paused_at", q.pausedAt());
            node.put("created_at", q.createdAt().toString());
            node.put("updated_at", q.updatedAt().toString());
            ObjectNode byState = node.putObject("jobs");
            counts.stream().filter(c -> c.queue().equals(q.name()))
                    .forEach(c -> byState.put(c.state().dbName(), c.count()));
            node.set("metadata", raw(q.metadata()));
        }
        return array;
    }

    /** Periodic jobs with their next run after {@code now}. */
    static ArrayNode periodic(List<PeriodicRow> rows, Instant now) {
        ArrayNode array = MAPPER.createArrayNode();
        for (PeriodicRow p : rows) {
            ObjectNode node = array.addObject();
            node.put("name", p.name());
            node.put("schedule", p.schedule());
            node.put("zone", p.zone());
            node.put("kind", p.kind());
            node.set("args", raw(p.args()));
            node.put("queue", p.queue());
            node.put("priority", p.priority());
            node.put("max_attempts", p.maxAttempts());
            ArrayNode tags = node.putArray("tags");
            p.tags().forEach(tags::add);
            node.set("metadata", raw(p.metadata()));
            node.put("catch_up", p.catchUp().dbName());
            node.put("run_on_start", p.runOnStart());
            node.put("declared", p.declared());
            node.put("paused", p.paused());
            time(node, "paused_at", p.pausedAt());
            time(node, "last_tick", p.lastTick());
            time(node, "next_run", PeriodicCommand.next(p, now));
            node.put("fired_through", p.firedThrough().toString());
            node.put("created_at", p.createdAt().toString());
            node.put("updated_at", p.updatedAt().toString());
        }
        return array;
    }

    /** Workflows with their tasks counted by state. */
    static ArrayNode workflows(List<WorkflowRow> rows) {
        ArrayNode array = MAPPER.createArrayNode();
        rows.forEach(w -> array.add(workflowRow(w)));
        return array;
    }

    /** One workflow, its counts and each of its tasks ({@code state} null once the task's job was deleted). */
    static ObjectNode workflow(WorkflowRow w, List<WorkflowTaskRow> tasks) {
        ObjectNode node = workflowRow(w);
        ArrayNode list = node.putArray("tasks");
        for (WorkflowTaskRow t : tasks) {
            ObjectNode task = list.addObject();
            task.put("name", t.name());
            task.put("job_id", t.jobId());
            task.put("kind", t.kind());
            if (t.state().isPresent()) {
                task.put("state", t.state().get().dbName());
            } else {
                task.putNull("state");
            }
            ArrayNode after = task.putArray("after");
            t.after().forEach(after::add);
            task.put("on_dependency_failure", t.onDependencyFailure().name().toLowerCase(java.util.Locale.ROOT));
            task.set("output", t.output().map(JsonOut::raw).orElse(MAPPER.getNodeFactory().nullNode()));
        }
        return node;
    }

    private static ObjectNode workflowRow(WorkflowRow w) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", w.id());
        node.put("name", w.name());
        node.put("state", WorkflowsCommand.state(w));
        node.put("created_at", w.createdAt().toString());
        node.put("task_count", w.taskCount());
        ObjectNode counts = node.putObject("counts");
        WorkflowsCommand.counts(w).forEach(counts::put);
        return node;
    }

    static ArrayNode batches(List<BatchRow> rows) {
        ArrayNode array = MAPPER.createArrayNode();
        rows.forEach(b -> array.add(batch(b)));
        return array;
    }

    /** A batch: its counts, whether it is complete, and the callback jobs inserted so far (null while not). */
    static ObjectNode batch(BatchRow b) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("id", b.id());
        if (b.name().isPresent()) {
            node.put("name", b.name().get());
        } else {
            node.putNull("name");
        }
        node.put("created_at", b.createdAt().toString());
        node.put("total", b.total());
        node.put("completed", b.completed());
        node.put("cancelled", b.cancelled());
        node.put("discarded", b.discarded());
        node.put("deleted", b.deleted());
        node.put("unfinished", b.unfinished());
        node.put("complete", b.isComplete());
        ObjectNode callbacks = node.putObject("callback_jobs");
        id(callbacks, "success", b.successJob());
        id(callbacks, "complete", b.completeJob());
        id(callbacks, "discard", b.discardJob());
        return node;
    }

    private static void id(ObjectNode node, String field, Optional<Long> id) {
        if (id.isPresent()) {
            node.put(field, id.get());
        } else {
            node.putNull(field);
        }
    }

    static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void time(ObjectNode node, String field, Optional<Instant> at) {
        if (at.isPresent()) {
            node.put(field, at.get().toString());
        } else {
            node.putNull(field);
        }
    }

    /** A stored JSON value as JSON; as a string if it does not parse (it always should). */
    private static JsonNode raw(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return MAPPER.getNodeFactory().textNode(json);
        }
    }
}
