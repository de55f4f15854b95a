package dev.runnel.driver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A driver's SQL file, parsed once: {@code -- name: X} blocks, one statement each, whose
 * parameters are named ({@code :queue}, {@code :client_id}). Internal SPI.
 *
 * <p>The Java side declares the file once, as an enum of its statements ({@code S}), each
 * constant named as its block and listing the {@linkplain Param parameters} it binds. Loading
 * checks the two against each other, so that a mismatch fails at startup rather than on first
 * use: every statement declared is in the file and every one in the file declared, and each
 * statement's SQL uses exactly the parameters it declares, no more and no fewer. A parameter
 * {@code CLIENT_ID} is {@code :client_id} in the SQL.
 *
 * <p>What is not a parameter: a Postgres cast ({@code x::text}), anything in a string literal
 * ({@code '...'}, {@code $$...$$}), a quoted identifier ({@code "..."}), or a
 * comment ({@code -- ...}, {@code /* ... *}{@code /}); nor a colon not followed at once by a
 * letter or underscore, so an array slice up to a name needs a space after its colon
 * ({@code a[1: n]}), one up to a number does not ({@code a[1:2]}). A JDBC {@code ?} outside those
 * is refused: a statement names its parameters. Comment lines inside a block are kept out of the
 * statement.
 *
 * <p>A block named {@code -- name: X as Y} is statement {@code Y} (a block before it) with its
 * last {@code RETURNING} clause replaced by {@code X}'s own text, which begins with
 * {@code RETURNING}: one statement that returns less than another, written once.
 */
public final class SqlFile<S extends Enum<S> & SqlFile.Statement> {
    /** A statement as its driver declares it: an enum constant named as its block in the file. */
    public interface Statement {
        /** The block's name in the file. */
        String name();

        /** The parameters this statement's SQL names, each once. */
        List<? extends Param> params();
    }

    /**
     * A named parameter, as an enum constant: {@code CLIENT_ID} is {@code :client_id} in the SQL.
     * One enum holds the parameters of one file; its ordinal indexes the positions a statement
     * resolved.
     */
    public interface Param {
        String name();

        int ordinal();
    }

    private static final String MARKER = "-- name:";
    private final String source;
    private final Sql[] statements;

    private SqlFile(String source, Sql[] statements) {
        this.source = source;
        this.statements = statements;
    }

    /**
     * Parses {@code in} (closed here), named {@code source} in errors, and checks it against the
     * statements and parameters {@code statements} declares. The driver opens the resource itself
     * ({@code JobSql.class.getResourceAsStream("job.sql")}): on the module path only its own
     * module may read its packages' resources.
     *
     * @throws IllegalStateException when {@code in} is null or the file does not match the declaration
     */
    public static <S extends Enum<S> & Statement> SqlFile<S> parse(String source, InputStream in, Class<S> statements) {
        Map<String, String> blocks = blocks(source, in);
        S[] declared = statements.getEnumConstants();
        Set<String> missing = new TreeSet<>();
        Set<String> undeclared = new TreeSet<>(blocks.keySet());
        List<String> problems = new ArrayList<>();
        Sql[] parsed = new Sql[declared.length];
        for (S statement : declared) {
            undeclared.remove(statement.name());
            String body = blocks.get(statement.name());
            if (body == null) {
                missing.add(statement.name());
                continue;
            }
            try {
                parsed[statement.ordinal()] = resolve(statement, body);
            } catch (IllegalStateException e) {
                problems.add(e.getMessage());
            }
        }
        if (!missing.isEmpty()) {
            problems.add("lacks statements " + missing);
        }
        if (!undeclared.isEmpty()) {
            problems.add("has statements " + undeclared + " that " + statements.getSimpleName() + " does not declare");
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(source + ": " + String.join("; ", problems));
        }
        return new SqlFile<>(source, parsed);
    }

    /** The statement {@code statement}. */
    public Sql get(S statement) {
        return statements[statement.ordinal()];
    }

    /** A copy with {@code {schema}} replaced in every statement; {@code schema} must be validated. */
    public SqlFile<S> withSchema(String schema) {
        return replacing("{schema}", schema);
    }

    /**
     * A copy with {@code placeholder} (such as {@code {schema}}) replaced by {@code value} in every
     * statement; {@code value} is SQL, so it must come from the driver, never from a user.
     */
    public SqlFile<S> replacing(String placeholder, String value) {
        Sql[] replaced = new Sql[statements.length];
        for (int i = 0; i < statements.length; i++) {
            replaced[i] = statements[i].withText(statements[i].text().replace(placeholder, value));
        }
        return new SqlFile<>(source, replaced);
    }

    @Override
    public String toString() {
        return source;
    }

    /** {@code param}'s name in SQL. */
    static String sqlName(Param param) {
        return param.name().toLowerCase(Locale.ROOT);
    }

    private static Map<String, String> blocks(String source, InputStream in) {
        if (in == null) {
            throw new IllegalStateException("SQL resource not found: " + source);
        }
        String text;
        try (in) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + source, e);
        }
        Map<String, String> blocks = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith(MARKER)) {
                put(source, blocks, name, body);
                name = trimmed.substring(MARKER.length()).strip();
                body.setLength(0);
            } else if (name != null && !trimmed.startsWith("--") && !trimmed.isEmpty()) {
                body.append(line).append('\n');
            }
        }
        put(source, blocks, name, body);
        return blocks;
    }

    private static void put(String source, Map<String, String> blocks, String name, StringBuilder body) {
        if (name == null) {
            return;
        }
        String sql = body.toString().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        String[] derived = name.split("\\s+as\\s+", 2);
        if (derived.length == 2) {
            name = derived[0];
            sql = returningReplaced(source, blocks, name, derived[1], sql);
        }
        if (blocks.put(name, sql) != null) {
            throw new IllegalStateException(source + " defines " + name + " twice");
        }
    }

    /** Statement {@code base}, a block before {@code name}, with its last RETURNING clause replaced by {@code returning}. */
    private static String returningReplaced(String source, Map<String, String> blocks, String name, String base,
            String returning) {
        String of = blocks.get(base);
        if (of == null) {
            throw new IllegalStateException(source + ": " + name + " is made from " + base + ", which no block before it defines");
        }
        int at = of.lastIndexOf("\nRETURNING ");
        if (at < 0 || !returning.startsWith("RETURNING ")) {
            throw new IllegalStateException(source + ": " + name + " replaces the RETURNING clause of " + base
                    + ", so both must have one, each on a line of its own");
        }
        return of.substring(0, at + 1) + returning;
    }

    /** {@code body} with each {@code :name} made a {@code ?}, its positions checked against what {@code statement} declares. */
    private static Sql resolve(Statement statement, String body) {
        List<String> names = new ArrayList<>();
        String text = placeholders(statement.name(), body, names);
        Map<String, Param> declared = new LinkedHashMap<>();
        int slots = 0;
        for (Param param : statement.params()) {
            if (declared.put(sqlName(param), param) != null) {
                throw new IllegalStateException(statement.name() + " declares :" + sqlName(param) + " twice");
            }
            slots = Math.max(slots, param.ordinal() + 1);
        }
        Set<String> used = new LinkedHashSet<>(names);
        Set<String> extra = new TreeSet<>(used);
        extra.removeAll(declared.keySet());
        Set<String> unused = new TreeSet<>(declared.keySet());
        unused.removeAll(used);
        if (!extra.isEmpty() || !unused.isEmpty()) {
            throw new IllegalStateException(statement.name() + "'s SQL "
                    + (extra.isEmpty() ? "" : "uses " + extra + ", not declared")
                    + (!extra.isEmpty() && !unused.isEmpty() ? ", and " : "")
                    + (unused.isEmpty() ? "" : "lacks " + unused + ", declared"));
        }
        int[][] positions = new int[slots][];
        for (Param param : statement.params()) {
            String name = sqlName(param);
            int count = 0;
            for (String n : names) {
                if (n.equals(name)) {
                    count++;
                }
            }
            int[] at = new int[count];
            int k = 0;
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i).equals(name)) {
                    at[k++] = i + 1;
                }
            }
            positions[param.ordinal()] = at;
        }
        return new Sql(statement.name(), text, positions);
    }

    /**
     * {@code sql} with every {@code :name} outside literals, quoted identifiers and comments made
     * a {@code ?}, the names added to {@code names} in order.
     */
    static String placeholders(String statement, String sql, List<String> names) {
        StringBuilder out = new StringBuilder(sql.length());
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = quoted(sql, i, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalStateException(statement + " has an unclosed comment");
                }
                end += 2;
            } else if (c == '$' && (end = dollarQuoted(statement, sql, i)) > i) {
                // a $tag$ ... $tag$ string: kept whole
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                end = i + 2;
            } else if (c == ':' && i + 1 < n && identifierStart(sql.charAt(i + 1))) {
                end = i + 1;
                while (end < n && identifierPart(sql.charAt(end))) {
                    end++;
                }
                names.add(sql.substring(i + 1, end).toLowerCase(Locale.ROOT));
                out.append('?');
                i = end;
                continue;
            } else if (c == '?') {
                throw new IllegalStateException(statement + " has a positional parameter (?): name it (:name)");
            } else {
                end = i + 1;
            }
            out.append(sql, i, end);
            i = end;
        }
        return out.toString();
    }

    /** The end of the literal or identifier quoted by {@code quote} that starts at {@code from}; a doubled quote is one inside it. */
    private static int quoted(String sql, int from, char quote) {
        int i = from + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw new IllegalStateException("unclosed " + quote + " in " + sql);
    }

    /** The end of a {@code $tag$ ... $tag$} string starting at {@code from}, or {@code from} when none starts there. */
    private static int dollarQuoted(String statement, String sql, int from) {
        int i = from + 1;
        if (i < sql.length() && Character.isDigit(sql.charAt(i))) {
            return from;
        }
        while (i < sql.length() && identifierPart(sql.charAt(i))) {
            i++;
        }
        if (i >= sql.length() || sql.charAt(i) != '$') {
            return from;
        }
        String tag = sql.substring(from, i + 1);
        int close = sql.indexOf(tag, i + 1);
        if (close < 0) {
            throw new IllegalStateException(statement + " has an unclosed " + tag + " string");
        }
        return close + tag.length();
    }

    private static boolean identifierStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean identifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
