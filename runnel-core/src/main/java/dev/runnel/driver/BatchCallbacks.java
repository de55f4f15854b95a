package dev.runnel.driver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.JobState;
import dev.runnel.json.RunnelJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch's callback jobs: kept with the batch as JSON when it is created, and inserted with the
 * batch's counts in their args once their condition holds ({@link Links#settle}). Internal SPI.
 */
public final class BatchCallbacks {
    private BatchCallbacks() {}

    /** A callback job as a batch keeps it, to insert when its condition holds. */
    public static ObjectNode encode(JobInsertParams job) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("kind", job.kind());
        try {
            node.set("args", RunnelJson.READER.readTree(job.args()));
            node.set("metadata", RunnelJson.READER.readTree(job.metadata()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a callback's args or metadata are not JSON: " + e.getOriginalMessage(),
                    e);
        }
        node.put("queue", job.queue());
        node.put("priority", job.priority());
        node.put("max_attempts", job.maxAttempts());
        job.tags().forEach(node.putArray("tags")::add);
        return node;
    }

    /**
     * The callback {@code callback} of batch {@code b} as a job to insert now, its args given the
     * batch's counts under the key {@code batch}; null when the batch has no such callback.
     */
    static JobInsertParams job(Links.BatchProgress b, String callback, Instant now) {
        JsonNode all;
        try {
            all = RunnelJson.READER.readTree(b.callbacks() == null ? "{}" : b.callbacks());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the callbacks of batch " + b.id() + " are not JSON", e);
        }
        JsonNode c = all.get(callback);
        if (c == null || c.isNull()) {
            return null;
        }
        ObjectNode args = c.get("args") instanceof ObjectNode o ? o.deepCopy() : JsonNodeFactory.instance.objectNode();
        ObjectNode counts = args.putObject("batch");
        counts.put("id", b.id());
        counts.put("total", b.total());
        counts.put("completed", b.completed());
        counts.put("cancelled", b.cancelled());
        counts.put("discarded", b.discarded());
        counts.put("deleted", b.deleted());
        List<String> tags = new ArrayList<>();
        c.path("tags").forEach(t -> tags.add(t.asText()));
        return new JobInsertParams(c.path("kind").asText(), args.toString(), c.path("queue").asText("default"),
                c.path("priority").asInt(1), JobState.AVAILABLE, now, now, c.path("max_attempts").asInt(25), tags,
                c.path("metadata").isObject() ? c.get("metadata").toString() : "{}");
    }
}
