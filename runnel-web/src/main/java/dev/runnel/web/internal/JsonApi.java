package dev.runnel.web.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.web.internal.Operations.JobAction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON API under {@code /api}: what every page shows, and every change it makes. Reads are
 * GETs; changes are POSTs with the CSRF token in the {@code X-CSRF-Token} header (from
 * {@code GET /api/session}) and a JSON body where they need one.
 */
final class JsonApi {
    private static final String JSON = "application/json; charset=utf-8";

    private final Runnel runnel;
    private final Snapshots data;
    private final Operations ops;
    private final Throughput throughput;
    private final Csrf csrf;
    private final Clock clock;

    JsonApi(Runnel runnel, Snapshots data, Operations ops, Throughput throughput, Csrf csrf, Clock clock) {
        this.runnel = runnel;
        this.data = data;
        this.ops = ops;
        this.throughput = throughput;
        this.csrf = csrf;
        this.clock = clock;
    }

    /** Handles {@code /api/...}, {@code s} being the segments after {@code api}. */
    void handle(Req req, List<String> s) throws IOException {
        String first = s.isEmpty() ? "" : s.getFirst();
        Instant now = clock.instant();
        if (!req.isPost()) {
            switch (first) {
                case "session" -> send(req, Map.of("user", req.user().name(), "role",
                        req.user().role().name().toLowerCase(), "csrf_token", csrf.token(req.user().name())));
                case "overview", "counts" -> send(req, counts());
                case "throughput" -> send(req, throughput.series());
                case "jobs" -> {
                    if (s.size() == 1) {
                        jobs(req);
                    } else if (s.get(1).equals("count")) {
                        // What a bulk change by this filter would touch, as the confirmation page shows it.
                        Operations.Matches m = ops.count(JobFilter.from(req));
                        send(req, Map.of("count", m.count(), "at_least", m.atLeast()));
                    } else {
                        long id = id(s.get(1));
                        send(req, Json.job(runnel.jobs().get(id).orElseThrow(() -> new NotFoundException("no job " + id))));
                    }
                }
                case "queues" -> send(req, data.queues().stream().map(q -> Json.queue(q.row(), byName(q.counts()))).toList());
                case "clients" -> send(req, data.clients().stream().map(c -> {
                    Map<String, Object> m = Json.client(c.row(), now, c.leader());
                    m.put("running", c.running());
                    return m;
                }).toList());
                case "periodic" -> send(req, data.periodic().stream().map(p -> Json.periodic(p.row(), now)).toList());
                case "audit" -> send(req, ops.audit(req.param("before").map(JsonApi::id).orElse(0L), 100).stream()
                        .map(Json::audit).toList());
                default -> throw new NotFoundException("no API endpoint " + req.path);
            }
            return;
        }
        // POST /api/jobs/{id}/{action}, /api/jobs/bulk, /api/queues/{name}/{pause|resume}, /api/periodic/{name}/...
        if (first.equals("jobs") && s.size() == 2 && s.get(1).equals("bulk")) {
            bulk(req);
        } else if (first.equals("jobs") && s.size() == 3) {
            send(req, Json.job(ops.one(req.user(), JobAction.parse(s.get(2)), id(s.get(1)))));
        } else if ((first.equals("queues") || first.equals("periodic")) && s.size() == 3) {
            boolean pause = pauseOrResume(s.get(2));
            if (first.equals("queues")) {
                ops.queue(req.user(), s.get(1), pause);
            } else {
                ops.periodic(req.user(), s.get(1), pause);
            }
            send(req, Map.of("name", s.get(1), "paused", pause));
        } else {
            throw new NotFoundException("no API endpoint POST " + req.path);
        }
    }

    private Map<String, Object> counts() {
        Views.Counts c = data.counts();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("exact", c.exact());
        m.put("total", byName(c.total()));
        Map<String, Object> queues = new LinkedHashMap<>();
        c.byQueue().forEach((q, counts) -> queues.put(q, byName(counts)));
        m.put("queues", queues);
        return m;
    }

    private void jobs(Req req) throws IOException {
        JobQuery query = JobFilter.from(req).query();
        Optional<Long> after = req.param("after").map(JsonApi::id);
        Optional<Long> before = req.param("before").map(JsonApi::id);
        if (after.isPresent()) {
            query = query.afterId(after.get());
        } else if (before.isPresent()) {
            query = query.beforeId(before.get());
        }
        Optional<Integer> limit = req.param("limit").map(JsonApi::limit);
        if (limit.isPresent()) {
            query = query.limit(limit.get());
        }
        // whole=true reads every id until the page is full; otherwise a filter no index serves stops
        // after about 50 ms with what it found ("partial"), and next_after goes on from there.
        boolean whole = req.param("whole").map(Boolean::parseBoolean).orElse(false);
        JobPage page = whole ? JobPage.listed(query, runnel.jobs().list(query)) : ops.search(query);
        List<JobRow> rows = page.jobs();
        Operations.Cursors cursors = Operations.Cursors.of(page, after, before);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jobs", Json.jobs(rows));
        m.put("partial", page.partial());
        m.put("next_after", cursors.olderThan().orElse(null));
        m.put("prev_before", cursors.newerThan().orElse(null));
        send(req, m);
    }

    /** {"action": "cancel", "ids": [1, 2]} or {"action": "cancel", "filter": {"state": "available", "queue": "q"}}. */
    private void bulk(Req req) throws IOException {
        JsonNode body = Json.read(req.body());
        JobAction action = JobAction.parse(body.path("action").asText(""));
        long changed;
        if (body.has("ids")) {
            JsonNode ids = body.get("ids");
            if (!ids.isArray()) {
                throw new IllegalArgumentException("\"ids\" must be an array of job ids, was " + ids.getNodeType().name().toLowerCase());
            }
            long[] array = new long[ids.size()];
            for (int i = 0; i < array.length; i++) {
                if (!ids.get(i).canConvertToExactIntegral() || !ids.get(i).canConvertToLong()) {
                    throw new IllegalArgumentException("\"ids\" must hold whole numbers, was " + ids.get(i));
                }
                array[i] = ids.get(i).asLong();
            }
            changed = ops.selection(req.user(), action, array);
        } else if (body.has("filter")) {
            JsonNode f = body.get("filter");
            JobFilter filter = new JobFilter(text(f, "state").map(v -> JobState.fromDb(v)), text(f, "queue"),
                    text(f, "kind"), text(f, "tag"), text(f, "id").map(JsonApi::id), text(f, "args"));
            changed = ops.filter(req.user(), action, filter);
        } else {
            throw new IllegalArgumentException("a bulk change needs \"ids\" (an array) or \"filter\" (an object)");
        }
        send(req, Map.of("action", action.word(), "changed", changed));
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        String s = v.isTextual() ? v.asText() : v.toString();
        return s.isBlank() ? Optional.empty() : Optional.of(s);
    }

    private static Map<String, Long> byName(Map<JobState, Long> counts) {
        Map<String, Long> m = new LinkedHashMap<>();
        counts.forEach((s, n) -> m.put(s.dbName(), n));
        return m;
    }

    static boolean pauseOrResume(String word) {
        return switch (word) {
            case "pause" -> true;
            case "resume" -> false;
            default -> throw new NotFoundException("no action " + word + ": pause or resume");
        };
    }

    static long id(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an id must be a whole number, was " + value);
        }
    }

    private static int limit(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit must be a whole number, was " + value);
        }
    }

    static void send(Req req, Object value) throws IOException {
        send(req, 200, value);
    }

    static void send(Req req, int status, Object value) throws IOException {
        req.send(status, JSON, Json.write(value).getBytes(StandardCharsets.UTF_8));
    }
}
