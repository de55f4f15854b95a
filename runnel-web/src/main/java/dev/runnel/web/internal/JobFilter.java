package dev.runnel.web.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The jobs page's filter, as its form and links carry it: a state tab, a queue, kind and tag, a job
 * id, and a search in args ({@code {"customer": 42}}, or {@code customer=42} for one key). Turned
 * into the same {@link JobQuery} the CLI's flags make.
 */
record JobFilter(Optional<JobState> state, Optional<String> queue, Optional<String> kind, Optional<String> tag,
        Optional<Long> id, Optional<String> args) {
    static final int PAGE = 50;
    /** The keys of a filter, as a query, a form and the API's {@code "filter"} object name them. */
    static final List<String> KEYS = List.of("state", "queue", "kind", "tag", "id", "args");
    /** No condition: every job. */
    static final JobFilter NONE = new JobFilter(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());
    /** What a form of a bulk change by filter carries besides the filter. */
    private static final Set<String> BULK_FORM = Set.of(Csrf.FIELD, "scope", "action", "back", "all");

    /**
     * A bulk change's filter, and whether it was meant to be empty: a change by an empty filter
     * is a change to every job, and must say so ({@code "all": true}, as the CLI's {@code --all}).
     */
    record Bulk(JobFilter filter, boolean all) {}

    /** The filter of a page's query or form, other parameters (a cursor, a page size) ignored. */
    static JobFilter from(Req req) {
        return new JobFilter(req.param("state").map(JobFilter::state), req.param("queue"), req.param("kind"),
                req.param("tag"), req.param("id").map(JobFilter::id), req.param("args"));
    }

    /**
     * {@link #from}, refusing (IllegalArgumentException naming it) any parameter that is neither a
     * filter key nor one of {@code others}: a misspelt key must not widen a filter to every job.
     */
    static JobFilter strict(Req req, Set<String> others) {
        for (String name : req.paramNames()) {
            if (!KEYS.contains(name) && !others.contains(name)) {
                throw unknownKey(name);
            }
        }
        JobFilter filter = from(req);
        filter.query();
        return filter;
    }

    /** The filter of the form that confirms a bulk change by filter, with its {@code all}. */
    static Bulk bulkForm(Req req) {
        JobFilter filter = strict(req, BULK_FORM);
        boolean all = switch (req.param("all").orElse("false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("all must be true or false, was " + req.param("all").get());
        };
        return new Bulk(filter, all);
    }

    /**
     * The API's {@code "filter"} object: each key one of {@link #KEYS}, {@code state}, {@code queue},
     * {@code kind} and {@code tag} strings, {@code id} a whole number, {@code args} an object (or a
     * search string as the jobs page takes it); null as absent. IllegalArgumentException naming the
     * key for any other key or type.
     */
    static JobFilter fromJson(JsonNode f) {
        if (!f.isObject()) {
            throw new IllegalArgumentException("\"filter\" must be an object such as {\"state\": \"discarded\","
                    + " \"queue\": \"default\"}, was " + shown(f));
        }
        for (String name : Json.keys(f)) {
            if (!KEYS.contains(name)) {
                throw unknownKey(name);
            }
        }
        JobFilter filter = new JobFilter(text(f, "state").map(JobFilter::state), text(f, "queue"), text(f, "kind"),
                text(f, "tag"), whole(f, "id"), argsValue(f));
        filter.query();
        return filter;
    }

    /** Whether it has no condition at all: it matches every job. */
    boolean isEmpty() {
        return params().isEmpty();
    }

    /** The query, newest first, a page of {@link #PAGE}; throws IllegalArgumentException on a bad value. */
    JobQuery query() {
        JobQuery q = JobQuery.all().newestFirst().limit(PAGE);
        if (state.isPresent()) {
            q = q.states(state.get());
        }
        if (queue.isPresent()) {
            q = q.queues(queue.get());
        }
        if (kind.isPresent()) {
            q = q.kinds(kind.get());
        }
        if (tag.isPresent()) {
            q = q.tags(tag.get());
        }
        if (id.isPresent()) {
            q = q.idRange(id.get(), id.get());
        }
        if (args.isPresent()) {
            q = q.args(argsJson(args.get()));
        }
        return q;
    }

    /** Whether anything narrows it beyond the state tab. */
    boolean narrowed() {
        return queue.isPresent() || kind.isPresent() || tag.isPresent() || id.isPresent() || args.isPresent();
    }

    /** Its parameters, for a link or a hidden form field; empty ones left out. */
    Map<String, String> params() {
        Map<String, String> p = new LinkedHashMap<>();
        state.ifPresent(s -> p.put("state", s.dbName()));
        queue.ifPresent(v -> p.put("queue", v));
        kind.ifPresent(v -> p.put("kind", v));
        tag.ifPresent(v -> p.put("tag", v));
        id.ifPresent(v -> p.put("id", Long.toString(v)));
        args.ifPresent(v -> p.put("args", v));
        return p;
    }

    /** Its query string ({@code ?...}, or empty) with {@code extra} added, such as a page cursor. */
    String query(Map<String, String> extra) {
        Map<String, String> all = new LinkedHashMap<>(params());
        all.putAll(extra);
        return Urls.query(all);
    }

    /** The same filter on another state tab (empty: all states). */
    JobFilter withState(Optional<JobState> other) {
        return new JobFilter(other, queue, kind, tag, id, args);
    }

    /** A readable description for the audit log. */
    String describe() {
        return params().isEmpty() ? "all jobs" : params().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    private static JobState state(String value) {
        try {
            return JobState.fromDb(value.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("state must be one of available, scheduled, running, retryable,"
                    + " completed, cancelled, discarded; was " + value);
        }
    }

    private static long id(String value) {
        try {
            long id = Long.parseLong(value);
            if (id < 1) {
                throw new NumberFormatException();
            }
            return id;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("id must be a positive whole number, was " + value);
        }
    }

    /** {@code key=value} searches one key for a string (or a number, when it reads as one); JSON is taken as is. */
    static String argsJson(String search) {
        String s = search.strip();
        if (s.startsWith("{")) {
            return s;
        }
        int eq = s.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("args search must be a JSON object such as {\"customer\": 42}, or"
                    + " key=value; was " + search);
        }
        String key = s.substring(0, eq).strip();
        String value = s.substring(eq + 1).strip();
        Map<String, Object> one = new LinkedHashMap<>();
        one.put(key, value.matches("-?\\d{1,18}") ? (Object) Long.parseLong(value)
                : value.equals("true") || value.equals("false") ? (Object) Boolean.parseBoolean(value) : value);
        return Json.write(one);
    }

    private static IllegalArgumentException unknownKey(String name) {
        return new IllegalArgumentException("unknown filter key \"" + shownName(name) + "\"; known keys: "
                + String.join(", ", KEYS));
    }

    private static Optional<String> text(JsonNode f, String key) {
        JsonNode v = f.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("filter key \"" + key + "\" must be a string, was " + shown(v));
        }
        if (v.asText().isBlank()) {
            throw new IllegalArgumentException("filter key \"" + key + "\" must not be blank: leave it out to match"
                    + " any " + key);
        }
        return Optional.of(v.asText().strip());
    }

    private static Optional<Long> whole(JsonNode f, String key) {
        JsonNode v = f.get(key);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 1) {
            throw new IllegalArgumentException("filter key \"" + key + "\" must be a job id (a whole number above"
                    + " 0), was " + shown(v));
        }
        return Optional.of(v.asLong());
    }

    private static Optional<String> argsValue(JsonNode f) {
        JsonNode v = f.get("args");
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (v.isObject()) {
            return v.isEmpty() ? Optional.empty() : Optional.of(v.toString());
        }
        if (v.isTextual() && !v.asText().isBlank()) {
            return Optional.of(v.asText());
        }
        throw new IllegalArgumentException("filter key \"args\" must be an object such as {\"customer\": 42} (or a"
                + " search such as \"customer=42\"), was " + shown(v));
    }

    /** A JSON value short enough for a message. */
    static String shown(JsonNode v) {
        String s = v.toString();
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }

    private static String shownName(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
