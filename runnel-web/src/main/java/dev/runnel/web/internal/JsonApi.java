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
import java.util.Set;

/**
 * The JSON API under {@code /api}: what every page shows, and every change it makes. Reads are
 * GETs; changes are POSTs with the CSRF token in the {@code X-CSRF-Token} header (from
 * {@code GET /api/session}) and a JSON body where they need one.
 */
final class JsonApi {
    private static final String JSON = "application/json; charset=utf-8";
    /**
     * The largest page {@code GET /api/jobs} returns: {@value}. Each job in it is a preview (about
     * a kilobyte at most), so that a page stays about a megabyte.
     */
    static final int MAX_LIMIT = 1_000;
    /** What {@code GET /api/jobs} takes besides a filter. */
    private static final Set<String> LIST_PARAMS = Set.of("after", "before", "limit", "whole");
    /** The keys of a bulk change's body. */
    private static final List<String> BULK_KEYS = List.of("action", "ids", "filter", "all");

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
                        Operations.Matches m = ops.count(JobFilter.strict(req, Set.of()));
                        send(req, Map.of("count", m.count(), "at_least", m.atLeast()));
                    } else {
                        long id = id(s.get(1));
                        Map<String, Object> job = Json.job(runnel.jobs().get(id)
                                .orElseThrow(() -> new NotFoundException("no job " + id)));
                        job.put("links", runnel.jobs().links(id).map(Json::links).orElse(null));
                        send(req, job);
                    }
                }
                case "workflows" -> {
                    if (s.size() == 1) {
                        long before = req.param("before").map(JsonApi::id).orElse(0L);
                        int limit = req.param("limit").map(JsonApi::limit).orElse(HtmlPages.LIST_PAGE);
                        send(req, (before == 0 ? runnel.workflows().list(limit) : runnel.workflows().list(limit, before))
                                .stream().map(Json::workflow).toList());
                    } else if (s.size() == 2) {
                        long id = id(s.get(1));
                        Map<String, Object> w = Json.workflow(runnel.workflows().get(id)
                                .orElseThrow(() -> new NotFoundException("no workflow " + id)));
                        w.put("tasks", runnel.workflows().tasks(id).stream().map(Json::task).toList());
                        send(req, w);
                    } else {
                        throw new NotFoundException("no API endpoint " + req.path);
                    }
                }
                case "batches" -> {
                    if (s.size() == 1) {
                        long before = req.param("before").map(JsonApi::id).orElse(0L);
                        int limit = req.param("limit").map(JsonApi::limit).orElse(HtmlPages.LIST_PAGE);
                        send(req, (before == 0 ? runnel.batches().list(limit) : runnel.batches().list(limit, before))
                                .stream().map(Json::batch).toList());
                    } else if (s.size() == 2) {
                        long id = id(s.get(1));
                        send(req, Json.batch(runnel.batches().get(id)
                                .orElseThrow(() -> new NotFoundException("no batch " + id))));
                    } else {
                        throw new NotFoundException("no API endpoint " + req.path);
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
        // POST /api/jobs/{id}/{action}, /api/jobs/bulk, /api/workflows/{id}/{cancel|retry},
        // /api/queues/{name}/{pause|resume}, /api/periodic/{name}/...
        if (first.equals("jobs") && s.size() == 2 && s.get(1).equals("bulk")) {
            bulk(req);
        } else if (first.equals("jobs") && s.size() == 3) {
            send(req, Json.job(ops.one(req.user(), JobAction.parse(s.get(2)), id(s.get(1)))));
        } else if (first.equals("workflows") && s.size() == 3) {
            long id = id(s.get(1));
            Operations.WorkflowAction action = Operations.WorkflowAction.parse(s.get(2));
            int changed = ops.workflow(req.user(), action, id);
            send(req, Map.of("id", id, "action", action.word(), "changed", changed));
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
        JobQuery query = JobFilter.strict(req, LIST_PARAMS).query();
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
        // A filter no index serves stops after the search budget (50 ms by default) with what it
        // found ("partial"), and next_after goes on from there; whole=true, for operators, reads on
        // until the page is full, for at most Operations.WHOLE_BUDGET.
        boolean whole = req.param("whole").map(v -> bool("whole", v)).orElse(false);
        JobPage page = whole ? ops.whole(req.user(), query) : ops.search(query);
        List<JobRow> rows = page.jobs();
        Operations.Cursors cursors = Operations.Cursors.of(page, after, before);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jobs", Json.jobPreviews(rows));
        m.put("partial", page.partial());
        m.put("next_after", cursors.olderThan().orElse(null));
        m.put("prev_before", cursors.newerThan().orElse(null));
        send(req, m);
    }

    /**
     * {"action": "cancel", "ids": [1, 2]}, {"action": "cancel", "filter": {"state": "available",
     * "queue": "q"}}, or {"action": "cancel", "all": true} for every job. Every key and value is
     * checked before anything changes: a misspelt key is a 400, never a wider change.
     */
    private void bulk(Req req) throws IOException {
        JsonNode body = Json.read(req.body());
        if (!body.isObject()) {
            throw new IllegalArgumentException("a bulk change is a JSON object such as {\"action\": \"cancel\","
                    + " \"ids\": [1, 2]}");
        }
        for (String name : Json.keys(body)) {
            if (!BULK_KEYS.contains(name)) {
                throw new IllegalArgumentException("unknown key \"" + (name.length() <= 64 ? name : name.substring(0, 64)
                        + "…") + "\" in a bulk change; known keys: " + String.join(", ", BULK_KEYS));
            }
        }
        JsonNode a = body.path("action");
        if (!a.isTextual()) {
            throw new IllegalArgumentException("\"action\" must be retry, cancel or delete, was "
                    + (a.isMissingNode() ? "missing" : JobFilter.shown(a)));
        }
        JobAction action = JobAction.parse(a.asText());
        JsonNode ids = body.path("ids");
        JsonNode filter = body.path("filter");
        JsonNode allNode = body.path("all");
        if (!allNode.isMissingNode() && !allNode.isNull() && !allNode.isBoolean()) {
            throw new IllegalArgumentException("\"all\" must be true or false, was " + JobFilter.shown(allNode));
        }
        boolean all = allNode.asBoolean(false);
        boolean byIds = !ids.isMissingNode() && !ids.isNull();
        boolean byFilter = !filter.isMissingNode() && !filter.isNull();
        if (byIds && (byFilter || all)) {
            throw new IllegalArgumentException("give \"ids\" or a \"filter\" (or \"all\": true), not both");
        }
        long changed;
        if (byIds) {
            changed = ops.selection(req.user(), action, ids(ids));
        } else if (byFilter || all) {
            JobFilter f = byFilter ? JobFilter.fromJson(filter) : JobFilter.NONE;
            changed = ops.filter(req.user(), action, new JobFilter.Bulk(f, all));
        } else {
            throw new IllegalArgumentException("a bulk change needs \"ids\" (an array of job ids), a \"filter\" (an"
                    + " object), or \"all\": true for every job");
        }
        send(req, Map.of("action", action.word(), "changed", changed));
    }

    /** A bulk change's {@code "ids"}: an array of job ids (whole numbers above 0). */
    private static long[] ids(JsonNode ids) {
        if (!ids.isArray()) {
            throw new IllegalArgumentException("\"ids\" must be an array of job ids such as [1, 2], was "
                    + JobFilter.shown(ids));
        }
        if (ids.size() > Operations.MAX_SELECTION) {
            throw new IllegalArgumentException("a selection may hold at most " + Operations.MAX_SELECTION + " jobs,"
                    + " was " + ids.size() + "; act on a filter instead");
        }
        long[] array = new long[ids.size()];
        for (int i = 0; i < array.length; i++) {
            JsonNode v = ids.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 1) {
                throw new IllegalArgumentException("\"ids\"[" + i + "] must be a job id (a whole number above 0),"
                        + " was " + JobFilter.shown(v));
            }
            array[i] = v.asLong();
        }
        return array;
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
        int limit;
        try {
            limit = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            limit = 0;
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be a whole number from 1 to " + MAX_LIMIT + ", was " + value);
        }
        return limit;
    }

    private static boolean bool(String name, String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, was " + value);
        };
    }

    static void send(Req req, Object value) throws IOException {
        send(req, 200, value);
    }

    static void send(Req req, int status, Object value) throws IOException {
        req.send(status, JSON, Json.write(value).getBytes(StandardCharsets.UTF_8));
    }
}
