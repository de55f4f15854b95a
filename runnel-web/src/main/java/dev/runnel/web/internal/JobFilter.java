package dev.runnel.web.internal;

import dev.runnel.JobQuery;
import dev.runnel.JobState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The jobs page's filter, as its form and links carry it: a state tab, a queue, kind and tag, a job
 * id, and a search in args ({@code {"customer": 42}}, or {@code customer=42} for one key). Turned
 * into the same {@link JobQuery} the CLI's flags make.
 */
record JobFilter(Optional<JobState> state, Optional<String> queue, Optional<String> kind, Optional<String> tag,
        Optional<Long> id, Optional<String> args) {
    static final int PAGE = 50;

    static JobFilter from(Req req) {
        return new JobFilter(req.param("state").map(JobFilter::state), req.param("queue"), req.param("kind"),
                req.param("tag"), req.param("id").map(JobFilter::id), req.param("args"));
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

    /** Its query string with {@code extra} added, such as a page cursor. */
    String queryString(Map<String, String> extra) {
        Map<String, String> all = new LinkedHashMap<>(params());
        all.putAll(extra);
        return all.entrySet().stream()
                .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                .collect(Collectors.joining("&"));
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

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
