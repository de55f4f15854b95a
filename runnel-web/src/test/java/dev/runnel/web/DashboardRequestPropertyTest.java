package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.runnel.InsertOptions;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.Runnel;
import dev.runnel.Schedule;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Greet;
import dev.runnel.web.WebFixture.Named;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;

/**
 * Generated requests against a real dashboard on a SQLite file: paths of any characters, encoded,
 * half-encoded or not; queries of any keys and values; JSON bodies of any shape for the API's
 * changes. Whatever comes, the answer is a status below 500 with a status line (never a dropped
 * connection), and no job, queue or periodic job changes but those the request names. The client
 * in front of the file only inserts and never starts, so nothing else changes a job meanwhile.
 * Bounded: a few hundred requests in all, a few seconds per property.
 */
class DashboardRequestPropertyTest {
    private static final List<String> NAMES = Stream.concat(Stream.of("default", "other"),
            DashboardApiScenario.TRICKY_NAMES.stream()).toList();
    private static final List<String> STATES = List.of("available", "scheduled", "running", "retryable", "completed",
            "cancelled", "discarded");
    private static final List<String> TAGS = List.of("vip", "bulk", "x-1");
    private static final List<String> WORDS = List.of("", "api", "jobs", "queues", "periodic", "partials", "counts",
            "workflows", "batches",
            "confirm", "assets", "audit", "clients", "session", "throughput", "pause", "resume", "retry", "cancel",
            "delete", "1", "2", "0", "-1", "+3", "007", "99999999999999999999", ".", "..", "%2E%2E", "%2e", "%2F",
            "%25", "%25zz", "%zz", "%", "%2", "%C3%28", "%ED%A0%80", "%F0%9F%98%80", "%00", "%0A", "a%2Fb", "a%20b",
            "50%25off", "%2E%2E%2Fjobs%2F1%2Fdelete%3F", "..%2Fjobs%2F1%2Fdelete%3F", "app.css", "htmx.min.js");

    private static Path dir;
    private static Runnel runnel;
    private static RunnelWeb web;
    private static String csrf;
    private static int seeded;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("runnel-web-properties");
        // A client works the queues once, so that they exist; the one behind the dashboard only inserts.
        try (Runnel worker = builder(NAMES).worker(Greet.class, job -> {}).build()) {
            worker.start();
            Await.until("queues registered", () -> worker.queues().list().size() == NAMES.size());
        }
        runnel = builder(List.of()).build();
        for (String name : NAMES) {
            runnel.periodic().upsert(PeriodicJob.of(name, Schedule.cron("0 3 * * *"), name, "{\"note\":\"n1\"}"));
        }
        web = RunnelWeb.builder(runnel).port(0).build().start();
        csrf = WebFixture.JSON.readTree(send("GET", "/api/session", Map.of(), null).body()).get("csrf_token").asText();
    }

    private static dev.runnel.RunnelBuilder builder(List<String> queues) {
        var b = Runnel.builder().driver(SqliteDriver.open(dir.resolve("jobs.db"))).autoMigrate(true);
        queues.forEach(q -> b.queue(q, 1));
        return b;
    }

    @AfterContainer
    static void stop() throws IOException {
        if (web != null) {
            web.close();
        }
        if (runnel != null) {
            runnel.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Keeps a dozen jobs to act on, of every queue and kind, some tagged: a request may have deleted some. */
    @BeforeTry
    void enoughJobs() {
        while (runnel.jobs().list(JobQuery.all().limit(20)).size() < 12) {
            String name = NAMES.get(seeded % NAMES.size());
            InsertOptions.Builder o = InsertOptions.builder().queue(name).scheduledAt(Instant.now().plusSeconds(3_600));
            if (seeded % 3 == 0) {
                o.tags(TAGS.get(seeded % TAGS.size()));
            }
            runnel.insert(new Named(NAMES.get((seeded / 2) % NAMES.size()), "n" + (seeded % 4)), o.build());
            seeded++;
        }
    }

    @Property(tries = 150)
    void aGetOfAnyPathIsAnsweredAndChangesNothing(@ForAll("paths") String path) throws Exception {
        State before = State.read();
        Reply r = send("GET", path, Map.of(), null);
        assertThat(r.status()).as(path).isBetween(200, 499);
        assertThat(State.read()).as(path).isEqualTo(before);
    }

    @Property(tries = 100)
    void aGetWithAnyQueryIsAnsweredAndChangesNothing(@ForAll("listings") String listing, @ForAll("queries") String query)
            throws Exception {
        State before = State.read();
        Reply r = send("GET", listing + "?" + query, Map.of(), null);
        assertThat(r.status()).as(listing + "?" + query).isBetween(200, 499);
        assertThat(State.read()).as(query).isEqualTo(before);
    }

    @Property(tries = 150)
    @StatisticsReport(onFailureOnly = false)
    void aPostToAnyPathChangesOnlyTheJobQueueOrPeriodicJobItNames(@ForAll("postPaths") String path,
            @ForAll("bodies") String body, @ForAll boolean json, @ForAll("tokens") String token) throws Exception {
        Set<String> named = decodedSegments(path);
        State before = State.read();
        Reply r = send("POST", path, Map.of("Content-Type", json ? "application/json" : "application/x-www-form-urlencoded",
                "X-CSRF-Token", token), body);
        assertThat(r.status()).as(path).isBetween(200, 499);
        State after = State.read();
        Statistics.label("changed something").collect(!before.equals(after));
        Statistics.label("changed something").coverage(c -> c.check(true).count(k -> k >= 3));
        for (Long id : before.changedJobs(after)) {
            assertThat(named).as("job " + id + " changed by POST " + path).anyMatch(s -> parses(s, id));
        }
        assertThat(before.changedNames(after)).as("POST " + path).allMatch(named::contains);
    }

    @Property(tries = 200)
    @StatisticsReport(onFailureOnly = false)
    void aBulkChangeChangesOnlyTheJobsItsBodyNames(@ForAll("bulkBodies") String body) throws Exception {
        State before = State.read();
        Reply r = send("POST", "/api/jobs/bulk", Map.of("Content-Type", "application/json", "X-CSRF-Token", csrf), body);
        assertThat(r.status()).as(body).isBetween(200, 499);
        assertThat(WebFixture.JSON.readTree(r.body()).has(r.status() == 200 ? "changed" : "error")).as(body).isTrue();
        State after = State.read();
        assertThat(before.changedNames(after)).isEmpty();
        Set<Long> changed = before.changedJobs(after);
        Statistics.label("status").collect(r.status());
        Statistics.label("changed something").collect(!changed.isEmpty());
        Statistics.label("changed something").coverage(c -> c.check(true).count(k -> k >= 5));
        if (r.status() != 200) {
            assertThat(changed).as("refused with %s: %s", r.status(), body).isEmpty();
            return;
        }
        JsonNode b = WebFixture.JSON.readTree(body);
        for (Long id : changed) {
            JobRow job = before.jobs().get(id);
            assertThat(mayMatch(b, job)).as("job %s changed by %s", id, body).isTrue();
        }
    }

    /** Whether bulk body {@code b}, accepted, may name {@code job}: a superset of what it matches. */
    private static boolean mayMatch(JsonNode b, JobRow job) {
        if (b.hasNonNull("ids")) {
            return b.get("ids").valueStream().anyMatch(v -> v.asLong() == job.id());
        }
        JsonNode f = b.path("filter");
        if (!f.isObject() || f.isEmpty()) {
            return b.path("all").asBoolean(false);
        }
        boolean all = true;
        for (Map.Entry<String, JsonNode> e : f.properties()) {
            JsonNode v = e.getValue();
            if (v.isNull()) {
                continue;
            }
            String text = v.asText().strip();
            all &= switch (e.getKey()) {
                case "state" -> job.state().dbName().equalsIgnoreCase(text);
                case "queue" -> job.queue().equals(text);
                case "kind" -> job.kind().equals(text);
                case "tag" -> job.tags().contains(text);
                case "id" -> job.id() == v.asLong();
                case "args" -> v.isObject() ? v.isEmpty() || v.properties().stream().allMatch(a -> job.args()
                        .contains(a.getValue().asText())) : job.args().contains(text.replaceFirst("^[^=]*=", "").strip())
                        || text.startsWith("{");
                default -> false;
            };
        }
        return all;
    }

    private static boolean parses(String segment, long id) {
        try {
            return Long.parseLong(segment) == id;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The path's segments, each decoded once (strictly; one that does not decode names nothing). */
    private static Set<String> decodedSegments(String path) {
        String p = path.split("[?#]", 2)[0];
        Set<String> out = new HashSet<>();
        for (String raw : p.split("/")) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            boolean ok = true;
            for (int i = 0; i < raw.length() && ok; i++) {
                char c = raw.charAt(i);
                if (c == '%' && i + 2 < raw.length() && Character.digit(raw.charAt(i + 1), 16) >= 0
                        && Character.digit(raw.charAt(i + 2), 16) >= 0) {
                    bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                    i += 2;
                } else if (c == '%') {
                    ok = false;
                } else {
                    bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                }
            }
            if (ok) {
                try {
                    out.add(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
                } catch (CharacterCodingException e) {
                    // names nothing
                }
            }
        }
        return out;
    }

    // ---- generators ----

    /** One segment: a known word, characters a path may hold raw, any text encoded, any text raw, or a broken escape. */
    private static Arbitrary<String> segment() {
        return Arbitraries.oneOf(
                Arbitraries.of(WORDS),
                Arbitraries.of(NAMES).map(DashboardApiScenario::segment),
                Arbitraries.strings().withChars("abcXYZ019-._~!$&'()*+,;=:@%/").ofMaxLength(10),
                Arbitraries.strings().all().ofMaxLength(8).map(DashboardApiScenario::segment),
                Arbitraries.strings().all().ofMaxLength(6).map(DashboardRequestPropertyTest::requestTargetSafe),
                Arbitraries.strings().withChars("0123456789abcdefABCDEFxz%").ofMaxLength(8).map(s -> "%" + s),
                Arbitraries.longs().map(String::valueOf));
    }

    /** {@code s} without what ends a request line or a request target (space, CR, LF, other controls). */
    private static String requestTargetSafe(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().filter(c -> c > 0x20 && c != 0x7f && !Character.isISOControl(c) && !Character.isSpaceChar(c))
                .forEach(b::appendCodePoint);
        return b.toString();
    }

    @Provide
    Arbitrary<String> paths() {
        return Combinators.combine(segment().list().ofMaxSize(5), Arbitraries.of("", "/", "//"),
                Arbitraries.of("", "?", "?x=%zz", "?queue=a%2Fb", "#frag")).as((segs, end, q) ->
                "/" + String.join("/", segs) + (segs.isEmpty() ? "" : end) + q);
    }

    @Provide
    Arbitrary<String> listings() {
        return Arbitraries.of("/api/jobs", "/api/jobs/count", "/jobs", "/partials/jobs", "/jobs/confirm", "/api/audit",
                "/audit", "/api/jobs/1", "/", "/partials/counts", "/queues", "/workflows", "/api/workflows", "/batches",
                "/api/batches");
    }

    @Provide
    Arbitrary<String> queries() {
        Arbitrary<String> keys = Arbitraries.oneOf(Arbitraries.of("state", "queue", "kind", "tag", "id", "args", "after",
                "before", "limit", "whole", "action", "qeue", "_csrf", "", "a b", "%zz", "%C3%28"),
                Arbitraries.strings().all().ofMaxLength(6).map(DashboardApiScenario::form));
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of(STATES), Arbitraries.of(NAMES).map(DashboardApiScenario::form), Arbitraries.of(TAGS),
                Arbitraries.of("retry", "cancel", "delete", "true", "false", "1", "0", "-5", "1001", "10000",
                        "99999999999999999999", "note%3Dn1", "%7B%22note%22%3A%22n2%22%7D", "%7B%22note%22%3A%7B%7D%7D",
                        "%7B", "%zz", "%", "%C3%28", "%ED%A0%80", "%00", "a+b", "+", ""),
                Arbitraries.strings().all().ofMaxLength(12).map(DashboardApiScenario::form),
                Arbitraries.strings().withChars("abc=&%+;").ofMaxLength(8),
                Arbitraries.longs().map(String::valueOf));
        Arbitrary<String> pair = Combinators.combine(keys, values, Arbitraries.of("=", "", "==")).as((k, v, eq) -> k + eq + v);
        return pair.list().ofMaxSize(5).map(l -> String.join("&", l));
    }

    @Provide
    Arbitrary<String> postPaths() {
        Arbitrary<String> id = Arbitraries.oneOf(existingId().map(String::valueOf),
                Arbitraries.integers().between(0, 60).map(String::valueOf));
        Arbitrary<String> prefix = Arbitraries.of("/api/jobs", "/api/queues", "/api/periodic", "/jobs", "/queues",
                "/periodic", "/api/workflows", "/workflows", "/api", "");
        Arbitrary<String> target = Arbitraries.frequencyOf(Tuple.of(3, id),
                Tuple.of(3, Arbitraries.of(NAMES).map(DashboardApiScenario::segment)), Tuple.of(2, segment()));
        Arbitrary<String> action = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of("pause", "resume", "retry", "cancel", "delete")),
                Tuple.of(1, Arbitraries.of("", "%70ause", "PAUSE", "retry/x", "cancel/")), Tuple.of(2, segment()));
        // Only targets the JDK's server reads as a path (ASCII, as it reads the request line's bytes as
        // Latin-1; and not //name, an authority): it answers any other itself, before the dashboard sees it, and closes
        // without reading the body, so that the client may see the connection reset first (the GETs
        // above try such targets, without a body).
        return Combinators.combine(prefix, target, action).as((p, t, a) -> p + "/" + t + "/" + a)
                .filter(p -> !decodedSegments(p).contains("bulk") && isUri(p));
    }

    private static boolean isUri(String target) {
        if (!target.chars().allMatch(c -> c < 0x80)) {
            return false;
        }
        try {
            java.net.URI uri = new java.net.URI(target);
            return uri.getRawAuthority() == null && uri.getRawPath() != null && uri.getRawPath().startsWith("/");
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    @Provide
    Arbitrary<String> bodies() {
        return Arbitraries.oneOf(json(3).map(JsonNode::toString), bulkBodies(),
                Arbitraries.strings().all().ofMaxLength(40), Arbitraries.of("", "_csrf=x&scope=filter&all=true",
                        "action=delete&id=1&id=2", "scope=filter&action=delete&all=true"));
    }

    @Provide
    Arbitrary<String> tokens() {
        return Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(csrf)), Tuple.of(1, Arbitraries.of("", "forged")));
    }

    /**
     * Bodies for {@code POST /api/jobs/bulk}: by ids, by a filter, for every job, with each value
     * mostly right for its key and sometimes of any type, and some bodies of any shape or not JSON.
     */
    @Provide
    Arbitrary<String> bulkBodies() {
        JsonNodeFactory n = JsonNodeFactory.instance;
        Arbitrary<JsonNode> action = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.of("retry", "cancel", "delete").map(TextNode::valueOf)),
                Tuple.of(1, json(1)));
        Arbitrary<JsonNode> ids = Arbitraries.frequencyOf(
                Tuple.of(5, existingId().map(x -> (JsonNode) LongNode.valueOf(x)).list().ofMinSize(1).ofMaxSize(4)
                        .map(l -> (JsonNode) n.arrayNode().addAll(l))),
                Tuple.of(1, json(2)));
        Arbitrary<JsonNode> all = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.of(BooleanNode.TRUE, BooleanNode.FALSE)),
                Tuple.of(1, json(0)));
        Arbitrary<JsonNode> filter = Arbitraries.frequencyOf(Tuple.of(6, Combinators.combine(
                rightOrAny(Arbitraries.of(STATES).map(TextNode::valueOf)),
                rightOrAny(Arbitraries.of(NAMES).map(TextNode::valueOf)),
                rightOrAny(Arbitraries.of(NAMES).map(TextNode::valueOf)),
                rightOrAny(Arbitraries.of(TAGS).map(TextNode::valueOf)),
                rightOrAny(existingId().map(LongNode::valueOf)),
                rightOrAny(Arbitraries.oneOf(
                        Arbitraries.of("n0", "n1", "n2", "n3").map(v -> (JsonNode) n.objectNode().put("note", v)),
                        Arbitraries.of("note=n1", "{\"note\":\"n2\"}", "nonsense", "=", "{").map(TextNode::valueOf))),
                Arbitraries.of("qeue", "Kind", "", "states").injectNull(0.85))
                .as((state, queue, kind, tag, id, args, typo) -> {
                    ObjectNode o = n.objectNode();
                    Optional.ofNullable(state).ifPresent(v -> o.set("state", v));
                    Optional.ofNullable(queue).ifPresent(v -> o.set("queue", v));
                    Optional.ofNullable(kind).ifPresent(v -> o.set("kind", v));
                    Optional.ofNullable(tag).ifPresent(v -> o.set("tag", v));
                    Optional.ofNullable(id).ifPresent(v -> o.set("id", v));
                    Optional.ofNullable(args).ifPresent(v -> o.set("args", v));
                    Optional.ofNullable(typo).ifPresent(k -> o.put(k, "x"));
                    return (JsonNode) o;
                })), Tuple.of(1, json(2)));
        Arbitrary<String> byIds = Combinators.combine(action, ids).as((a, i) -> n.objectNode().<ObjectNode>set("action", a)
                .<ObjectNode>set("ids", i).toString());
        Arbitrary<String> byFilter = Combinators.combine(action, filter, all.injectNull(0.8)).as((a, f, l) -> {
            ObjectNode o = n.objectNode().<ObjectNode>set("action", a).set("filter", f);
            Optional.ofNullable(l).ifPresent(v -> o.set("all", v));
            return o.toString();
        });
        Arbitrary<String> byAll = Combinators.combine(action, all).as((a, l) -> n.objectNode().<ObjectNode>set("action", a)
                .<ObjectNode>set("all", l).toString());
        Arbitrary<String> mixed = Combinators.combine(action.injectNull(0.2), ids.injectNull(0.5), filter.injectNull(0.5),
                all.injectNull(0.5), Arbitraries.of("fitler", "ID", "action ").injectNull(0.7)).as((a, i, f, l, extra) -> {
                    ObjectNode o = n.objectNode();
                    Optional.ofNullable(a).ifPresent(v -> o.set("action", v));
                    Optional.ofNullable(i).ifPresent(v -> o.set("ids", v));
                    Optional.ofNullable(f).ifPresent(v -> o.set("filter", v));
                    Optional.ofNullable(l).ifPresent(v -> o.set("all", v));
                    Optional.ofNullable(extra).ifPresent(k -> o.put(k, 1));
                    return o.toString();
                });
        Arbitrary<String> broken = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 5_000).map(d -> "[".repeat(d) + "]".repeat(d)),
                Arbitraries.integers().between(1, 5_000).map(d -> "{\"action\":\"cancel\",\"ids\":" + "[".repeat(d)
                        + "1" + "]".repeat(d) + "}"),
                Arbitraries.integers().between(1, 3_000).map(d -> "{\"action\":\"cancel\",\"ids\":[1" + "0".repeat(d) + "]}"),
                Arbitraries.integers().between(1, 3_000).map(d -> "{\"action\":\"cancel\",\"filter\":{\"id\":1e" + d + "}}"),
                Arbitraries.strings().all().ofMaxLength(30),
                Arbitraries.of("", "null", "\"cancel\"", "{", "{\"action\":\"cancel\",\"all\":true,}", "\uFEFF{}",
                        "{\"action\":\"cancel\",\"filter\":{\"queue\":\"\\ud800\"}}",
                        "{\"action\":\"cancel\",\"action\":\"delete\",\"ids\":[1]}"));
        return Arbitraries.frequencyOf(Tuple.of(3, byIds), Tuple.of(4, byFilter), Tuple.of(1, byAll), Tuple.of(2, mixed),
                Tuple.of(1, broken));
    }

    /** {@code right} mostly, sometimes any JSON value, and absent (null) half the time. */
    private static Arbitrary<JsonNode> rightOrAny(Arbitrary<JsonNode> right) {
        return Arbitraries.frequencyOf(Tuple.of(6, right), Tuple.of(1, json(1))).injectNull(0.5);
    }

    /** The id of a job there is now (or of one deleted since it was picked). */
    private static Arbitrary<Long> existingId() {
        return Arbitraries.integers().between(0, 1_000).map(i -> {
            List<JobRow> jobs = runnel.jobs().list(JobQuery.all().limit(50));
            return jobs.isEmpty() ? 1L : jobs.get(i % jobs.size()).id();
        });
    }

    /** Any JSON value, nested at most {@code depth} deep: text, whole numbers small and huge, fractions, booleans, null. */
    private static Arbitrary<JsonNode> json(int depth) {
        JsonNodeFactory n = JsonNodeFactory.instance;
        Arbitrary<JsonNode> leaf = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(10).map(TextNode::valueOf),
                Arbitraries.longs().map(LongNode::valueOf),
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40))
                        .map(BigIntegerNode::valueOf),
                Arbitraries.doubles().map(DoubleNode::valueOf),
                Arbitraries.of(BooleanNode.TRUE, BooleanNode.FALSE, NullNode.instance));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<JsonNode> inner = json(depth - 1);
        return Arbitraries.frequencyOf(Tuple.of(3, leaf),
                Tuple.of(1, inner.list().ofMaxSize(3).map(l -> (JsonNode) new ArrayNode(n, new ArrayList<>(l)))),
                Tuple.of(1, Arbitraries.maps(Arbitraries.strings().all().ofMaxLength(6), inner).ofMaxSize(3).map(m -> {
                    ObjectNode o = n.objectNode();
                    m.forEach(o::set);
                    return (JsonNode) o;
                })));
    }

    // ---- the state compared, and the raw HTTP ----

    /** Every job as stored, and which queues and periodic jobs are paused. */
    private record State(Map<Long, JobRow> jobs, Map<String, Boolean> paused) {
        static State read() {
            Map<Long, JobRow> jobs = new TreeMap<>();
            runnel.jobs().list(JobQuery.all().limit(JobQuery.MAX_LIMIT)).forEach(j -> jobs.put(j.id(), j));
            Map<String, Boolean> paused = new TreeMap<>();
            for (QueueRow q : runnel.queues().list()) {
                paused.put(q.name(), q.paused());
            }
            for (PeriodicRow p : runnel.periodic().list()) {
                paused.put("periodic " + p.name(), p.paused());
            }
            return new State(jobs, paused);
        }

        Set<Long> changedJobs(State after) {
            Set<Long> ids = new HashSet<>(jobs.keySet());
            ids.addAll(after.jobs.keySet());
            ids.removeIf(id -> java.util.Objects.equals(jobs.get(id), after.jobs.get(id)));
            return ids;
        }

        /** The names of the queues and periodic jobs whose pause changed. */
        Set<String> changedNames(State after) {
            Set<String> names = new HashSet<>();
            paused.forEach((k, v) -> {
                if (!v.equals(after.paused.get(k))) {
                    names.add(k.startsWith("periodic ") ? k.substring("periodic ".length()) : k);
                }
            });
            return names;
        }
    }

    private record Reply(int status, String body) {}

    /**
     * {@code method target} over a socket of its own, the target's characters sent as UTF-8 bytes
     * exactly as given (an HTTP client would encode or refuse some); fails on no answer at all.
     */
    private static Reply send(String method, String target, Map<String, String> headers, String body) throws IOException {
        int port = web.port();
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nConnection: close\r\n");
        if (method.equals("POST")) {
            head.append("Origin: http://127.0.0.1:").append(port).append("\r\n");
            head.append("Content-Length: ").append(content.length).append("\r\n");
        }
        headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        head.append("\r\n");
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(content);
            out.flush();
            InputStream in = s.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(reply).as("the reply to " + method + " " + target).startsWith("HTTP/1.1 ");
            int status = Integer.parseInt(reply.substring(9, 12));
            int at = reply.indexOf("\r\n\r\n");
            return new Reply(status, at < 0 ? "" : reply.substring(at + 4));
        }
    }

    static String form(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
