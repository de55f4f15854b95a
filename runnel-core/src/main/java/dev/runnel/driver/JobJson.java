package dev.runnel.driver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.JobError;
import dev.runnel.RunnelException;
import dev.runnel.json.RunnelJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The runtime's own JSON: the forms of a job's columns that drivers store (errors, and string lists
 * where the database has no array type), metadata, output and internal values. Args are not
 * Runnel's own: a client writes and reads them with its configured mapper. The mapper, readers and
 * keys are those of {@code dev.runnel.json.RunnelJson}, which the API's value types share. Internal SPI.
 */
public final class JobJson {
    /** The key of a job's metadata that holds the output of the attempt that completed it. */
    public static final String OUTPUT_KEY = RunnelJson.OUTPUT_KEY;
    /** The metadata key under which a job's snoozes are counted (the outcome statements write it). */
    public static final String SNOOZES_KEY = RunnelJson.SNOOZES_KEY;

    /** Between two values of a compact JSON array of strings. */
    private static final String STRINGS_SEPARATOR = "\",\"";

    /** Reads the runtime's own JSON (trees, maps); immutable and thread-safe. */
    public static final ObjectReader READER = RunnelJson.READER;

    /** Writes the runtime's own JSON; immutable and thread-safe. */
    public static final ObjectWriter WRITER = RunnelJson.WRITER;

    /** Makes the trees the runtime builds (objects, arrays). */
    public static final JsonNodeFactory NODES = RunnelJson.NODES;

    private JobJson() {}

    /**
     * One error as a JSON object: {@code {"attempt":1,"at":"...","error":"...","trace":"..."}}, its
     * texts {@linkplain #clean cleaned}.
     */
    public static String encodeError(JobError error) {
        ObjectNode node = NODES.objectNode();
        node.put("attempt", error.attempt());
        node.put("at", error.at().toString());
        node.put("error", clean(error.message()));
        node.put("trace", clean(error.trace()));
        return node.toString();
    }

    /**
     * {@code text} with every NUL character written out as six characters (a backslash, {@code u}
     * and four zeros). An exception message may hold NUL (bytes decoded as text, a C library's
     * buffer), and Postgres refuses it in {@code jsonb} and {@code text}: one such message made a
     * whole batch of outcomes unwritable. Written out, it stays visible to whoever reads the error.
     */
    public static String clean(String text) {
        return text.indexOf('\0') < 0 ? text : text.replace("\0", "\\u0000");
    }

    public static JobError decodeError(JsonNode node) {
        return new JobError(
                node.path("attempt").asInt(),
                Instant.parse(node.path("at").asText(Instant.EPOCH.toString())),
                node.path("error").asText(""),
                node.path("trace").asText(""));
    }

    public static JobError decodeError(String json) {
        return decodeError(tree(json));
    }

    /** A JSON array of error objects; null or empty gives an empty list. */
    public static List<JobError> decodeErrors(String json) {
        if (json == null || json.isEmpty() || json.equals("[]")) {
            return List.of();
        }
        List<JobError> errors = new ArrayList<>();
        for (JsonNode node : tree(json)) {
            errors.add(decodeError(node));
        }
        return errors;
    }

    /** A JSON array of strings; null or empty gives an empty list. */
    public static List<String> decodeStrings(String json) {
        if (json == null || json.isEmpty() || json.equals("[]")) {
            return List.of();
        }
        // The common case, compact arrays of names without escapes such as ["host-123-ab12cd34"]:
        // with no backslash no string holds a quote, so a part holding none between the '","'
        // separators is a whole value; anything else goes to the parser. Read on every claimed
        // row, under SQLite's writer lock: indexOf, not String.split (whose three-character
        // separator compiles a regular expression per call).
        if (json.length() > 3 && json.startsWith("[\"") && json.endsWith("\"]") && json.indexOf('\\') < 0) {
            List<String> plain = plainStrings(json);
            if (plain != null) {
                return plain;
            }
        }
        List<String> values = new ArrayList<>();
        for (JsonNode node : tree(json)) {
            values.add(node.asText());
        }
        return values;
    }

    /** The values of {@code ["a","b"]} (no backslash in it), or null when a part holds a quote. */
    private static List<String> plainStrings(String json) {
        int end = json.length() - 2;
        int from = 2;
        int sep = json.indexOf(STRINGS_SEPARATOR, from);
        if (sep < 0 || sep >= end) {
            String only = json.substring(from, end);
            return only.indexOf('"') < 0 ? List.of(only) : null;
        }
        List<String> parts = new ArrayList<>();
        while (true) {
            int stop = sep < 0 || sep >= end ? end : sep;
            String part = json.substring(from, stop);
            if (part.indexOf('"') >= 0) {
                return null;
            }
            parts.add(part);
            if (stop == end) {
                return List.copyOf(parts);
            }
            from = stop + STRINGS_SEPARATOR.length();
            if (from > end) {
                return null; // not JSON: ["a","]
            }
            sep = json.indexOf(STRINGS_SEPARATOR, from);
        }
    }

    public static String encodeStrings(List<String> values) {
        if (values.isEmpty()) {
            return "[]";
        }
        ArrayNode array = NODES.arrayNode();
        values.forEach(array::add);
        return array.toString();
    }

    /** Stored JSON as a tree; a {@link RunnelException} when it is malformed. */
    public static JsonNode readTree(String json) {
        return tree(json);
    }

    private static JsonNode tree(String json) {
        try {
            return READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new RunnelException("stored JSON is malformed: " + e.getOriginalMessage(), e);
        }
    }
}
