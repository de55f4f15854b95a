package dev.runnel.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A driver's named SQL statements, parsed once from a resource file of {@code -- name: X} blocks.
 * Comment lines inside a block are kept out of the statement. Internal SPI.
 */
public final class SqlFile {
    private static final String MARKER = "-- name:";
    private final String source;
    private final Map<String, String> statements;

    private SqlFile(String source, Map<String, String> statements) {
        this.source = source;
        this.statements = statements;
    }

    /**
     * Parses {@code in} (closed here) and checks that every name in {@code required} is present,
     * so that a missing statement fails at startup rather than on first use.
     */
    public static SqlFile parse(String source, InputStream in, Set<String> required) {
        if (in == null) {
            throw new IllegalStateException("SQL resource not found: " + source);
        }
        String text;
        try (in) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + source, e);
        }
        Map<String, String> statements = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith(MARKER)) {
                put(source, statements, name, body);
                name = trimmed.substring(MARKER.length()).strip();
                body.setLength(0);
            } else if (name != null && !trimmed.startsWith("--") && !trimmed.isEmpty()) {
                body.append(line).append('\n');
            }
        }
        put(source, statements, name, body);
        Set<String> missing = new TreeSet<>(required);
        missing.removeAll(statements.keySet());
        if (!missing.isEmpty()) {
            throw new IllegalStateException(source + " lacks statements " + missing);
        }
        return new SqlFile(source, Map.copyOf(statements));
    }

    private static void put(String source, Map<String, String> statements, String name, StringBuilder body) {
        if (name == null) {
            return;
        }
        String sql = body.toString().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        if (statements.put(name, sql) != null) {
            throw new IllegalStateException(source + " defines " + name + " twice");
        }
    }

    /** The statement called {@code name}. */
    public String get(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalArgumentException(source + " has no statement " + name);
        }
        return sql;
    }

    /** A copy with {@code {schema}} replaced in every statement; {@code schema} must be validated. */
    public SqlFile withSchema(String schema) {
        Map<String, String> replaced = new LinkedHashMap<>();
        statements.forEach((k, v) -> replaced.put(k, v.replace("{schema}", schema)));
        return new SqlFile(source, Map.copyOf(replaced));
    }
}
