package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.UniqueOptions;
import dev.runnel.driver.JobJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Unique keys: the kind and the parts {@link UniqueOptions} selects, written as one string and
 * hashed with SHA-256, so the key has a fixed size however large the args.
 */
final class UniqueKeys {
    /** Object fields in name order, at every depth: equal args give equal keys whatever their map order. */
    private static final ObjectWriter CANONICAL = JobJson.WRITER.with(JsonNodeFeature.WRITE_PROPERTIES_SORTED);

    private UniqueKeys() {}

    /**
     * The key of a job of {@code kind} with {@code args} (encoded) in {@code queue}, scheduled at
     * {@code scheduledAt}. Throws {@link IllegalArgumentException} when a field the key needs is
     * not in the args.
     */
    static byte[] key(String kind, String args, String queue, Instant scheduledAt, UniqueOptions unique) {
        StringBuilder key = new StringBuilder("kind=").append(kind);
        if (unique.byQueue()) {
            key.append("&queue=").append(queue);
        }
        unique.period().ifPresent(period -> {
            long millis = period.toMillis();
            key.append("&period=").append(Math.floorDiv(scheduledAt.toEpochMilli(), millis) * millis);
        });
        if (unique.byArgs()) {
            key.append("&args=").append(canonicalArgs(kind, args, unique.argsFields()));
        }
        return sha256(key.toString());
    }

    private static String canonicalArgs(String kind, String args, List<String> fields) {
        try {
            JsonNode tree = JobJson.READER.readTree(args);
            if (!fields.isEmpty()) {
                ObjectNode selected = JobJson.NODES.objectNode();
                for (String field : fields) {
                    if (!tree.has(field)) {
                        List<String> present = new ArrayList<>();
                        tree.fieldNames().forEachRemaining(present::add);
                        throw new IllegalArgumentException("unique byArgs field '" + field + "' is not in the args of kind "
                                + kind + " (its fields: " + String.join(", ", present) + ")");
                    }
                    selected.set(field, tree.get(field));
                }
                tree = selected;
            }
            return CANONICAL.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args of kind " + kind + " cannot be read for their unique key: "
                    + e.getOriginalMessage(), e);
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
