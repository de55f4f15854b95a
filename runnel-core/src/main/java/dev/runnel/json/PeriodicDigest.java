package dev.runnel.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The digest that tells one periodic job definition from another: what the cluster stores to see
 * whether a declared definition changed, and what {@code PeriodicJob.equals} compares. It takes
 * the parts rather than the definition so that this package needs nothing of the API.
 */
public final class PeriodicDigest {
    private PeriodicDigest() {}

    /**
     * A SHA-256 digest of every part of the definition but its name, in a canonical form: JSON
     * objects with their keys sorted, so that the same args written in another order (as Postgres'
     * jsonb reorders them, or an operator types them) give the same digest. The {@code v1} prefix
     * leaves room to change the form: a new form changes every digest once.
     */
    public static String of(String kind, String args, String queue, int priority, int maxAttempts, List<String> tags,
            String metadata, String schedule, String zone, String catchUp, boolean runOnStart) {
        ObjectNode canonical = RunnelJson.NODES.objectNode();
        canonical.put("kind", kind);
        canonical.set("args", sorted(tree(args)));
        canonical.put("queue", queue);
        canonical.put("priority", priority);
        canonical.put("max_attempts", maxAttempts);
        ArrayNode tagArray = canonical.putArray("tags");
        tags.forEach(tagArray::add);
        canonical.set("metadata", sorted(tree(metadata)));
        canonical.put("schedule", schedule);
        canonical.put("zone", zone);
        canonical.put("catch_up", catchUp);
        canonical.put("run_on_start", runOnStart);
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
            return RunnelJson.READER.readTree(json);
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
            ObjectNode out = RunnelJson.NODES.objectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = RunnelJson.NODES.arrayNode();
            node.forEach(element -> out.add(sorted(element)));
            return out;
        }
        return node;
    }
}
