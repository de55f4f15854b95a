package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.PeriodicJob;
import dev.runnel.driver.JobJson;
import dev.runnel.driver.PeriodicUpsertParams;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/** A periodic job's definition as the driver stores it, and the digest that tells one definition from another. */
public final class PeriodicDefinitions {
    private PeriodicDefinitions() {}

    /** What {@link dev.runnel.driver.Driver#periodicUpsert} stores for {@code job}. */
    public static PeriodicUpsertParams upsert(PeriodicJob job, boolean declared, Instant now) {
        return new PeriodicUpsertParams(job.name(), job.kind(), job.args(), job.queue(), job.priority(),
                job.maxAttempts(), job.tags(), job.metadata(), job.schedule().text(), job.schedule().zone().getId(),
                job.catchUp(), job.runOnStart(), hash(job), declared, now);
    }

    /**
     * A SHA-256 digest of every part of the definition but its name, in a canonical form: JSON
     * objects with their keys sorted, so that the same args written in another order (as Postgres'
     * jsonb reorders them, or an operator types them) give the same digest. The {@code v1} prefix
     * leaves room to change the form: a new form changes every digest once.
     */
    public static String hash(PeriodicJob job) {
        ObjectNode canonical = JobJson.NODES.objectNode();
        canonical.put("kind", job.kind());
        canonical.set("args", sorted(tree(job.args())));
        canonical.put("queue", job.queue());
        canonical.put("priority", job.priority());
        canonical.put("max_attempts", job.maxAttempts());
        ArrayNode tags = canonical.putArray("tags");
        job.tags().forEach(tags::add);
        canonical.set("metadata", sorted(tree(job.metadata())));
        canonical.put("schedule", job.schedule().text());
        canonical.put("zone", job.schedule().zone().getId());
        canonical.put("catch_up", job.catchUp().dbName());
        canonical.put("run_on_start", job.runOnStart());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return "v1:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static JsonNode tree(String json) {
        try {
            return JobJson.READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                fields.put(field.getKey(), sorted(field.getValue()));
            }
            ObjectNode out = JobJson.NODES.objectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JobJson.NODES.arrayNode();
            node.forEach(element -> out.add(sorted(element)));
            return out;
        }
        return node;
    }
}
