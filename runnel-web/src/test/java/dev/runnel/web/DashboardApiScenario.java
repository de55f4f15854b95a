package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.Audit;
import dev.runnel.AuditRow;
import dev.runnel.InsertOptions;
import dev.runnel.JobQuery;
import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import dev.runnel.Schedule;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON API on a real database, through real HTTP; each driver's subclass supplies the database. */
abstract class DashboardApiScenario {
    @TempDir
    Path dir;

    WebFixture web;

    protected abstract Driver newDriver(Path dir);

    @BeforeEach
    void start() {
        web = new WebFixture(newDriver(dir));
    }

    @AfterEach
    void stop() {
        web.close();
    }

    @Test
    void listsJobsByFilterAndPagesByKeys() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(web.insertLater(new Greet("n" + i), i % 2 == 0 ? "default" : "other"));
        }
        long tagged = web.insert(new Greet("tagged"), InsertOptions.builder().tags("vip")
                .scheduledAt(java.time.Instant.now().plusSeconds(3_600)).build());

        JsonNode all = web.getJson("/api/jobs?state=scheduled");
        assertThat(all.get("jobs")).hasSize(8);
        assertThat(all.get("jobs").get(0).get("id").asLong()).isEqualTo(tagged);

        JsonNode other = web.getJson("/api/jobs?queue=other");
        assertThat(other.get("jobs")).extracting(j -> j.get("queue").asText()).containsOnly("other").hasSize(3);

        JsonNode byTag = web.getJson("/api/jobs?tag=vip");
        assertThat(byTag.get("jobs")).extracting(j -> j.get("id").asLong()).containsExactly(tagged);

        JsonNode byArgs = web.getJson("/api/jobs?args=name%3Dn3");
        assertThat(byArgs.get("jobs")).extracting(j -> j.get("id").asLong()).containsExactly(ids.get(3));
        JsonNode byJson = web.getJson("/api/jobs?args=" + java.net.URLEncoder.encode("{\"name\":\"n4\"}", "UTF-8"));
        assertThat(byJson.get("jobs")).extracting(j -> j.get("id").asLong()).containsExactly(ids.get(4));

        JsonNode byId = web.getJson("/api/jobs?id=" + ids.get(2));
        assertThat(byId.get("jobs")).extracting(j -> j.get("id").asLong()).containsExactly(ids.get(2));

        JsonNode first = web.getJson("/api/jobs?kind=greet&limit=3");
        assertThat(first.get("jobs")).hasSize(3);
        long after = first.get("next_after").asLong();
        JsonNode second = web.getJson("/api/jobs?kind=greet&limit=3&after=" + after);
        assertThat(second.get("jobs").get(0).get("id").asLong()).isLessThan(after);
        JsonNode back = web.getJson("/api/jobs?kind=greet&limit=3&before=" + second.get("prev_before").asLong());
        assertThat(back.get("jobs")).extracting(j -> j.get("id").asLong())
                .containsExactlyElementsOf(() -> first.get("jobs").valueStream().map(j -> j.get("id").asLong()).iterator());

        assertThat(web.get("/api/jobs?state=nonsense").statusCode()).isEqualTo(400);
        assertThat(web.get("/api/jobs/999999").statusCode()).isEqualTo(404);
    }

    @Test
    void aSearchWithoutAnIndexShowsWhatItFoundAndGoesOnFromWhereItStopped() throws Exception {
        web.close();
        web = new WebFixture(newDriver(dir), b -> b.searchBudget(java.time.Duration.ZERO));
        // The oldest job is the one sought; 10,000 newer ones lie between it and the first page.
        InsertOptions parked = InsertOptions.builder().queue("parked").build();
        long sought = web.insert(new Fail("the one"), parked);
        List<dev.runnel.InsertRequest> filler = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            filler.add(new dev.runnel.InsertRequest(new Greet("n" + i), parked));
        }
        web.runnel.insertMany(filler);

        JsonNode first = web.getJson("/api/jobs?kind=fail");
        assertThat(first.get("partial").asBoolean()).isTrue();
        assertThat(first.get("jobs")).isEmpty();
        List<Long> found = new ArrayList<>();
        JsonNode page = first;
        int pages = 1;
        while (!page.get("next_after").isNull()) {
            page = web.getJson("/api/jobs?kind=fail&after=" + page.get("next_after").asLong());
            page.get("jobs").forEach(j -> found.add(j.get("id").asLong()));
            pages++;
        }
        assertThat(found).containsExactly(sought);
        assertThat(pages).as("one window of ids a page").isGreaterThanOrEqualTo(3);
        assertThat(page.get("partial").asBoolean()).isFalse();
        // Asked for whole, the listing reads every id at once.
        JsonNode whole = web.getJson("/api/jobs?kind=fail&whole=true");
        assertThat(whole.get("partial").asBoolean()).isFalse();
        assertThat(whole.get("jobs")).extracting(j -> j.get("id").asLong()).containsExactly(sought);
        // Counted before a bulk change: its matches' ids read for at most 100 ms. On a slow machine
        // that may end before the oldest job; then the count says "at least" what it found.
        JsonNode count = web.getJson("/api/jobs/count?kind=fail");
        if (count.get("at_least").asBoolean()) {
            assertThat(count.get("count").asLong()).isBetween(0L, 1L);
        } else {
            assertThat(count.get("count").asLong()).isEqualTo(1);
        }
        // The page says so, and links to the rest.
        String html = web.get("/jobs?kind=fail").body();
        assertThat(html).contains("No match among the jobs searched so far").contains("Search older jobs")
                .contains("after=" + first.get("next_after").asLong());
    }

    @Test
    void aCountByKindReadsEveryMatchWithinItsTimeAndIsExact() throws Exception {
        for (int i = 0; i < 3; i++) {
            web.insert(new Fail("count me " + i));
        }
        List<dev.runnel.InsertRequest> others = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            others.add(dev.runnel.InsertRequest.of(new Greet("n" + i)));
        }
        web.runnel.insertMany(others);
        JsonNode count = web.getJson("/api/jobs/count?kind=fail");
        assertThat(count.get("count").asLong()).isEqualTo(3);
        assertThat(count.get("at_least").asBoolean()).isFalse();
    }

    @Test
    void showsAJobWithItsErrorsAndOutput() throws Exception {
        long done = web.insert(new Greet("Ada"));
        long failed = web.insert(new Fail("partner API said no"));
        web.awaitState(done, JobState.COMPLETED);
        web.awaitState(failed, JobState.DISCARDED);

        JsonNode ok = web.getJson("/api/jobs/" + done);
        assertThat(ok.get("state").asText()).isEqualTo("completed");
        assertThat(ok.get("args").get("name").asText()).isEqualTo("Ada");
        assertThat(ok.get("output").get("greeted").asText()).isEqualTo("Ada");
        assertThat(ok.get("attempted_by")).hasSize(1);
        assertThat(ok.get("finalized_at").isNull()).isFalse();

        JsonNode bad = web.getJson("/api/jobs/" + failed);
        assertThat(bad.get("errors")).hasSize(1);
        assertThat(bad.get("errors").get(0).get("message").asText()).contains("partner API said no");
        assertThat(bad.get("errors").get(0).get("trace").asText()).contains("IllegalStateException");

        JsonNode counts = web.getJson("/api/counts");
        assertThat(counts.get("total").get("completed").asLong()).isEqualTo(1);
        assertThat(counts.get("total").get("discarded").asLong()).isEqualTo(1);
        assertThat(counts.get("queues").get("default").get("completed").asLong()).isEqualTo(1);

        JsonNode clients = web.getJson("/api/clients");
        assertThat(clients).hasSize(1);
        assertThat(clients.get(0).get("alive").asBoolean()).isTrue();
        assertThat(clients.get(0).get("id").asText()).isEqualTo(web.runnel.id());

        JsonNode chart = web.getJson("/api/throughput");
        assertThat(chart.get("minutes")).hasSize(60);
        assertThat(chart.get("completed")).hasSize(60);
    }

    @Test
    void retriesCancelsAndDeletesOneJobAndAuditsEach() throws Exception {
        long failed = web.insert(new Fail("flaky"));
        web.awaitState(failed, JobState.DISCARDED);
        JsonNode retried = web.postJson("/api/jobs/" + failed + "/retry", "");
        assertThat(retried.get("state").asText()).isIn("available", "running", "discarded");
        Await.until("the retried job fails again", () -> web.runnel.jobs().get(failed).orElseThrow().errors().size() == 2);

        long later = web.insertLater(new Greet("later"), "default");
        assertThat(web.postJson("/api/jobs/" + later + "/cancel", "").get("state").asText()).isEqualTo("cancelled");
        web.postJson("/api/jobs/" + later + "/delete", "");
        assertThat(web.runnel.jobs().get(later)).isEmpty();

        JsonNode audit = web.getJson("/api/audit");
        assertThat(audit).extracting(a -> a.get("action").asText())
                .containsExactly("job.delete", "job.cancel", "job.retry");
        assertThat(audit.get(0).get("actor").asText()).isEqualTo("local");
        assertThat(audit.get(0).get("target").asText()).isEqualTo("job " + later);
        assertThat(audit.get(0).get("count").asLong()).isEqualTo(1);
    }

    @Test
    void entriesRecordedThroughTheAuditApiArePagedNewestFirstAndShownByTheDashboard() throws Exception {
        Audit audit = web.runnel.audit();
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        long first = audit.record("ops", "queue.pause", "queue default", 1);
        long second = audit.record("nightly-script", "jobs.retry.filter", "state=discarded", 12);
        long third = audit.record("ops", "jobs.cancel.selected", "job " + "1,".repeat(1_500), 1_500);
        assertThat(second).isGreaterThan(first);
        assertThat(third).isGreaterThan(second);

        List<AuditRow> newest = audit.list(0, 10);
        assertThat(newest).extracting(AuditRow::id).containsExactly(third, second, first);
        AuditRow retried = newest.get(1);
        assertThat(retried.actor()).isEqualTo("nightly-script");
        assertThat(retried.action()).isEqualTo("jobs.retry.filter");
        assertThat(retried.target()).isEqualTo("state=discarded");
        assertThat(retried.count()).isEqualTo(12);
        assertThat(retried.at()).isBetween(before, Instant.now());
        // A long target is cut, its end marked, so that one entry stays readable.
        assertThat(newest.getFirst().target()).hasSize(2_000).startsWith("job 1,1,").endsWith("…");

        assertThat(audit.list(0, 2)).extracting(AuditRow::id).containsExactly(third, second);
        assertThat(audit.list(second, 10)).extracting(AuditRow::id).containsExactly(first);
        assertThat(audit.list(first, 10)).isEmpty();

        JsonNode shown = web.getJson("/api/audit");
        assertThat(shown).extracting(a -> a.get("id").asLong()).containsExactly(third, second, first);
        assertThat(shown.get(1).get("actor").asText()).isEqualTo("nightly-script");

        assertThatThrownBy(() -> audit.list(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> audit.list(0, Audit.MAX_LIST + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> audit.record(null, "queue.pause", "queue default", 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(audit.list(0, 10)).hasSize(3);
    }

    @Test
    void changesASelectionAndEveryJobOfAFilter() throws Exception {
        long a = web.insertLater(new Greet("a"), "default");
        long b = web.insertLater(new Greet("b"), "default");
        long c = web.insertLater(new Greet("c"), "other");
        long d = web.insertLater(new Greet("d"), "other");

        JsonNode selected = web.postJson("/api/jobs/bulk", "{\"action\":\"cancel\",\"ids\":[" + a + "," + b + "]}");
        assertThat(selected.get("changed").asLong()).isEqualTo(2);
        assertThat(web.runnel.jobs().get(a).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.runnel.jobs().get(c).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);

        JsonNode toDelete = web.getJson("/api/jobs/count?state=scheduled&queue=other");
        assertThat(toDelete.get("count").asLong()).isEqualTo(2);
        assertThat(toDelete.get("at_least").asBoolean()).isFalse();
        assertThat(web.getJson("/api/jobs/count?state=cancelled").get("count").asLong()).isEqualTo(2);
        JsonNode byFilter = web.postJson("/api/jobs/bulk",
                "{\"action\":\"delete\",\"filter\":{\"state\":\"scheduled\",\"queue\":\"other\"}}");
        assertThat(byFilter.get("changed").asLong()).isEqualTo(2);
        assertThat(web.runnel.jobs().get(c)).isEmpty();
        assertThat(web.runnel.jobs().get(d)).isEmpty();
        assertThat(web.runnel.jobs().get(a)).isPresent();

        JsonNode audit = web.getJson("/api/audit");
        assertThat(audit.get(0).get("action").asText()).isEqualTo("jobs.delete.filter");
        assertThat(audit.get(0).get("target").asText()).isEqualTo("state=scheduled queue=other");
        assertThat(audit.get(0).get("count").asLong()).isEqualTo(2);
        assertThat(audit.get(1).get("action").asText()).isEqualTo("jobs.cancel.selected");
        assertThat(audit.get(1).get("count").asLong()).isEqualTo(2);
    }

    @Test
    void pausesAndResumesAQueue() throws Exception {
        Await.until("queues registered", () -> web.runnel.queues().list().size() == 2);
        web.postJson("/api/queues/other/pause", "");
        JsonNode queues = web.getJson("/api/queues");
        JsonNode other = queues.valueStream().filter(q -> q.get("name").asText().equals("other")).findFirst().orElseThrow();
        assertThat(other.get("paused").asBoolean()).isTrue();
        assertThat(web.runnel.queues().get("other").orElseThrow().paused()).isTrue();

        web.postJson("/api/queues/other/resume", "");
        assertThat(web.runnel.queues().get("other").orElseThrow().paused()).isFalse();
        assertThat(web.post("/api/queues/nosuch/pause", "", Optional.of(web.csrf())).statusCode()).isEqualTo(404);
        assertThat(web.getJson("/api/audit")).extracting(x -> x.get("action").asText())
                .containsExactly("queue.resume", "queue.pause");
    }

    @Test
    void listsPeriodicJobsWithTheirNextRunAndPausesThem() throws Exception {
        web.runnel.periodic().upsert(dev.runnel.PeriodicJob.of("nightly", dev.runnel.Schedule.cron("0 3 * * *"),
                "greet", "{\"name\":\"night\"}"));
        JsonNode listed = web.getJson("/api/periodic");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("schedule").asText()).isEqualTo("0 3 * * *");
        assertThat(java.time.Instant.parse(listed.get(0).get("next_run").asText())).isAfter(java.time.Instant.now());

        web.postJson("/api/periodic/nightly/pause", "");
        JsonNode paused = web.getJson("/api/periodic").get(0);
        assertThat(paused.get("paused").asBoolean()).isTrue();
        assertThat(paused.get("next_run").isNull()).isTrue();
        assertThat(web.get("/periodic").body()).contains("nightly").contains(">Resume<");
        web.postJson("/api/periodic/nightly/resume", "");
        assertThat(web.runnel.periodic().get("nightly").orElseThrow().paused()).isFalse();
        assertThat(web.getJson("/api/audit").get(0).get("action").asText()).isEqualTo("periodic.resume");
    }

    @Test
    void servesTheHtmlPages() throws Exception {
        long id = web.insertLater(new Greet("page"), "default");
        for (String path : List.of("/", "/jobs", "/jobs?state=scheduled&queue=default", "/jobs/" + id, "/queues",
                "/clients", "/periodic", "/audit", "/partials/counts", "/partials/jobs?state=scheduled",
                "/jobs/confirm?action=cancel&state=scheduled", "/assets/htmx.min.js", "/assets/uPlot.iife.min.js")) {
            var r = web.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
        }
        assertThat(web.get("/jobs/" + id).body()).contains("Job " + id).contains("\"name\" : \"page\"");
        assertThat(web.get("/jobs/confirm?action=cancel&state=scheduled").body()).contains("id=\"confirm-count\">1<");
        assertThat(web.get("/nosuch").statusCode()).isEqualTo(404);
        assertThat(web.get("/assets/../../etc/passwd").statusCode()).isEqualTo(404);
    }

    @Test
    void theWorkflowsAndBatchesPagesAnswerOnEveryDatabaseEmptyWhereThereAreNone() throws Exception {
        assertThat(web.get("/workflows").body()).contains("No workflows.");
        assertThat(web.get("/batches").body()).contains("No batches.");
        assertThat(web.getJson("/api/workflows")).isEmpty();
        assertThat(web.getJson("/api/batches")).isEmpty();
        for (String path : List.of("/workflows/987654321", "/batches/987654321", "/api/workflows/987654321",
                "/api/batches/987654321")) {
            assertThat(web.get(path).statusCode()).as(path).isEqualTo(404);
        }
        HttpResponse<String> cancel = web.post("/api/workflows/987654321/cancel", "", Optional.of(web.csrf()));
        assertThat(cancel.statusCode()).isEqualTo(404);
        assertThat(cancel.body()).contains("no workflow 987654321");
        assertThat(web.getJson("/api/audit")).isEmpty();
        // A job tied to nothing: its page has no ties, and the API says null.
        long id = web.insertLater(new Greet("alone"), "default");
        assertThat(web.get("/jobs/" + id).body()).contains("Job " + id).doesNotContain("id=\"job-links\"");
        assertThat(web.getJson("/api/jobs/" + id).get("links").isNull()).isTrue();
    }

    /** Names that a path would split, resolve or cut short, unless each is encoded as one segment. */
    static final List<String> TRICKY_NAMES = List.of("../jobs/1/delete?", "50%off", "a/b", "a b");

    /** {@code name} as one path segment, encoded once (by hand here, not by the dashboard's own helper). */
    static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String form(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Every job's state, by id. */
    Map<Long, JobState> states() {
        Map<Long, JobState> m = new TreeMap<>();
        web.runnel.jobs().list(JobQuery.all().limit(JobQuery.MAX_LIMIT)).forEach(j -> m.put(j.id(), j.state()));
        return m;
    }

    static List<Long> ids(JsonNode page) {
        return page.get("jobs").valueStream().map(j -> j.get("id").asLong()).toList();
    }

    @Test
    void aQueueKindOrPeriodicJobNamedLikeAPathIsOneSegmentEncodedOnceAndNamesOnlyItself() throws Exception {
        web.close();
        web = new WebFixture(newDriver(dir), TRICKY_NAMES, b -> b);
        // The first job of the table: job 1, which a name such as ../jobs/1/delete? points at.
        long bystander = web.insertLater(new Greet("bystander"), "default");
        Map<String, Long> jobs = new LinkedHashMap<>();
        for (String name : TRICKY_NAMES) {
            jobs.put(name, web.insert(new WebFixture.Named(name, "in " + name), InsertOptions.builder().queue(name)
                    .scheduledAt(Instant.now().plusSeconds(3_600)).build()));
            web.runnel.periodic().upsert(PeriodicJob.of(name, Schedule.cron("0 3 * * *"), name, "{}"));
        }
        Await.until("queues registered", () -> web.runnel.queues().list().size() == 2 + TRICKY_NAMES.size());
        Map<Long, JobState> expected = states();
        List<String> audit = new ArrayList<>();
        for (String name : TRICKY_NAMES) {
            String seg = segment(name);
            assertThat(web.postJson("/api/queues/" + seg + "/pause", "").get("name").asText()).isEqualTo(name);
            assertThat(web.runnel.queues().list()).filteredOn(QueueRow::paused).extracting(QueueRow::name)
                    .containsExactly(name);
            web.postJson("/api/queues/" + seg + "/resume", "");
            assertThat(web.runnel.queues().list()).noneMatch(QueueRow::paused);
            assertThat(web.postJson("/api/periodic/" + seg + "/pause", "").get("name").asText()).isEqualTo(name);
            assertThat(web.runnel.periodic().list()).filteredOn(PeriodicRow::paused).extracting(PeriodicRow::name)
                    .containsExactly(name);
            web.postJson("/api/periodic/" + seg + "/resume", "");
            assertThat(web.runnel.periodic().list()).noneMatch(PeriodicRow::paused);

            assertThat(ids(web.getJson("/api/jobs?queue=" + form(name)))).containsExactly(jobs.get(name));
            assertThat(ids(web.getJson("/api/jobs?kind=" + form(name)))).containsExactly(jobs.get(name));
            assertThat(web.getJson("/api/jobs/count?queue=" + form(name)).get("count").asLong()).isEqualTo(1);
            for (String page : List.of("/jobs?queue=" + form(name), "/jobs?kind=" + form(name),
                    "/jobs/" + jobs.get(name), "/jobs/confirm?action=cancel&kind=" + form(name))) {
                assertThat(web.get(page).statusCode()).as(page).isEqualTo(200);
            }
            assertThat(web.postJson("/api/jobs/" + jobs.get(name) + "/cancel", "").get("state").asText())
                    .isEqualTo("cancelled");
            expected.put(jobs.get(name), JobState.CANCELLED);
            assertThat(states()).as("after the changes for " + name).isEqualTo(expected);
            audit.addAll(List.of("queue.pause queue " + name, "queue.resume queue " + name,
                    "periodic.pause periodic " + name, "periodic.resume periodic " + name,
                    "job.cancel job " + jobs.get(name)));
        }
        assertThat(web.runnel.jobs().get(bystander).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        assertThat(web.getJson("/api/audit").valueStream().map(a -> a.get("action").asText() + " "
                + a.get("target").asText()).toList()).containsExactlyElementsOf(audit.reversed());

        // Encoded twice, a name is another name, which no queue has.
        String token = web.csrf();
        assertThat(web.post("/api/queues/" + segment(segment("a/b")) + "/pause", "", Optional.of(token)).statusCode())
                .isEqualTo(404);
        // A segment that is not UTF-8 once decoded, or a %-escape that is not one, is a 400 that says so.
        HttpResponse<String> notUtf8 = web.get("/api/jobs/%C3%28");
        assertThat(notUtf8.statusCode()).isEqualTo(400);
        assertThat(notUtf8.body()).contains("not UTF-8");
        HttpResponse<String> query = web.get("/jobs?queue=%C3%28");
        assertThat(query.statusCode()).isEqualTo(400);
        assertThat(query.body()).contains("queue").contains("not UTF-8");
        assertThat(web.get("/api/jobs/%25zz").statusCode()).isEqualTo(400);
        assertThat(states()).isEqualTo(expected);

        // Every link and form carries each name encoded once, as one segment or one query value.
        String queues = web.get("/queues").body();
        String periodic = web.get("/periodic").body();
        for (String[] encoded : new String[][] {{"%2E%2E%2Fjobs%2F1%2Fdelete%3F", "..%2Fjobs%2F1%2Fdelete%3F"},
                {"50%25off", "50%25off"}, {"a%2Fb", "a%2Fb"}, {"a%20b", "a+b"}}) {
            assertThat(queues).contains("action=\"/queues/" + encoded[0] + "/pause\"")
                    .contains("href=\"/jobs?queue=" + encoded[1] + "\"");
            assertThat(periodic).contains("action=\"/periodic/" + encoded[0] + "/pause\"")
                    .contains("href=\"/jobs?kind=" + encoded[1] + "\"");
        }
        assertThat(web.get("/jobs/" + jobs.get("a b")).body()).contains("href=\"/jobs?queue=a+b\"");
    }

    @Test
    void aBulkChangeByFilterRefusesAnUnknownKeyAWrongTypeAndAnEmptyFilterWithoutAll() throws Exception {
        long a = web.insertLater(new Greet("a"), "default");
        long b = web.insertLater(new Greet("b"), "other");
        long c = web.insertLater(new Greet("c"), "other");
        Map<Long, JobState> before = states();
        String token = web.csrf();
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("{\"action\":\"cancel\",\"filter\":{\"qeue\":\"x\"}}",
                "unknown filter key \"qeue\"; known keys: state, queue, kind, tag, id, args");
        refused.put("{\"action\":\"delete\",\"filter\":{\"queue\":\"other\",\"kindd\":\"greet\"}}",
                "unknown filter key \"kindd\"");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"queue\":5}}", "filter key \"queue\" must be a string, was 5");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"queue\":[\"other\"]}}", "filter key \"queue\" must be a string");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"queue\":\"  \"}}", "filter key \"queue\" must not be blank");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"id\":\"" + a + "\"}}", "filter key \"id\" must be a job id");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"id\":1.5}}", "filter key \"id\" must be a job id");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"state\":\"nonsense\"}}", "state must be one of");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"state\":true}}", "filter key \"state\" must be a string");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"args\":42}}", "filter key \"args\" must be an object");
        refused.put("{\"action\":\"cancel\",\"filter\":{}}", "an empty filter matches every job");
        refused.put("{\"action\":\"cancel\",\"filter\":{\"queue\":null}}", "\"all\": true");
        refused.put("{\"action\":\"cancel\",\"filter\":{},\"all\":false}", "an empty filter matches every job");
        refused.put("{\"action\":\"cancel\",\"filter\":[]}", "\"filter\" must be an object");
        refused.put("{\"action\":\"cancel\",\"fitler\":{\"queue\":\"other\"}}",
                "unknown key \"fitler\" in a bulk change; known keys: action, ids, filter, all");
        refused.put("{\"action\":\"cancel\"}", "a bulk change needs \"ids\"");
        refused.put("{\"action\":\"cancel\",\"all\":\"yes\"}", "\"all\" must be true or false");
        refused.put("{\"action\":\"cancel\",\"ids\":{\"0\":" + a + "}}", "\"ids\" must be an array of job ids");
        refused.put("{\"action\":\"cancel\",\"ids\":[" + a + ",\"" + b + "\"]}", "\"ids\"[1] must be a job id");
        refused.put("{\"action\":\"cancel\",\"ids\":[" + a + "],\"filter\":{\"queue\":\"other\"}}", "not both");
        refused.put("{\"action\":\"cancel\",\"ids\":[" + a + "],\"all\":true}", "not both");
        refused.put("{\"action\":7,\"all\":true}", "\"action\" must be retry, cancel or delete, was 7");
        refused.put("{\"action\":\"purge\",\"all\":true}", "action must be retry, cancel or delete; was purge");
        refused.put("[{\"action\":\"cancel\",\"all\":true}]", "a bulk change is a JSON object");
        refused.put("{\"action\":\"cancel\",", "the body is not JSON");
        for (var e : refused.entrySet()) {
            HttpResponse<String> r = web.post("/api/jobs/bulk", e.getKey(), Optional.of(token));
            assertThat(r.statusCode()).as(e.getKey()).isEqualTo(400);
            assertThat(WebFixture.JSON.readTree(r.body()).get("error").asText()).as(e.getKey()).contains(e.getValue());
        }
        assertThat(states()).isEqualTo(before);
        assertThat(web.getJson("/api/audit")).isEmpty();
        // Reads by filter are as strict: a misspelt key does not list or count every job.
        assertThat(web.get("/api/jobs?qeue=other").statusCode()).isEqualTo(400);
        assertThat(web.get("/api/jobs/count?qeue=other").body()).contains("unknown filter key \\\"qeue\\\"");

        JsonNode byArgs = web.postJson("/api/jobs/bulk", "{\"action\":\"cancel\",\"filter\":{\"args\":{\"name\":\"b\"}}}");
        assertThat(byArgs.get("changed").asLong()).isEqualTo(1);
        assertThat(web.runnel.jobs().get(b).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        assertThat(web.runnel.jobs().get(c).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        JsonNode every = web.postJson("/api/jobs/bulk", "{\"action\":\"cancel\",\"filter\":{},\"all\":true}");
        assertThat(every.get("changed").asLong()).isEqualTo(2);
        assertThat(states().values()).containsOnly(JobState.CANCELLED);
        assertThat(web.getJson("/api/audit").get(0).get("target").asText()).isEqualTo("all jobs");
        assertThat(web.postJson("/api/jobs/bulk", "{\"action\":\"delete\",\"all\":true}").get("changed").asLong())
                .isEqualTo(3);
    }

    @Test
    void theFormOfABulkChangeByFilterShowsEachKeyAndTheCountAndRefusesATypo() throws Exception {
        long a = web.insertLater(new Greet("a"), "default");
        long b = web.insertLater(new Greet("b"), "other");
        long c = web.insertLater(new Greet("c"), "other");
        String shown = web.get("/jobs/confirm?action=cancel&state=scheduled&queue=other").body();
        assertThat(shown).contains("<tr data-key=\"state\"><th>state</th><td><code>scheduled</code></td></tr>")
                .contains("<tr data-key=\"queue\"><th>queue</th><td><code>other</code></td></tr>")
                .contains("id=\"confirm-count\">2<").doesNotContain("name=\"all\"");
        String everything = web.get("/jobs/confirm?action=delete").body();
        assertThat(everything).contains("id=\"confirm-every\"").contains("every job")
                .contains("id=\"confirm-count\">3<").contains("<input type=\"hidden\" name=\"all\" value=\"true\">");
        HttpResponse<String> typo = web.get("/jobs/confirm?action=delete&qeue=other");
        assertThat(typo.statusCode()).isEqualTo(400);
        assertThat(typo.body()).contains("unknown filter key \"qeue\"");

        Map<Long, JobState> before = states();
        String token = web.csrf();
        HttpResponse<String> misspelt = web.postForm("/jobs/bulk", "_csrf=" + token
                + "&scope=filter&action=delete&qeue=other");
        assertThat(misspelt.statusCode()).isEqualTo(400);
        assertThat(misspelt.body()).contains("unknown filter key \"qeue\"");
        HttpResponse<String> empty = web.postForm("/jobs/bulk", "_csrf=" + token + "&scope=filter&action=delete");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).contains("an empty filter matches every job");
        assertThat(web.postForm("/jobs/bulk", "_csrf=" + token + "&scope=filter&action=delete&all=yes").statusCode())
                .isEqualTo(400);
        assertThat(states()).isEqualTo(before);
        assertThat(web.getJson("/api/audit")).isEmpty();

        HttpResponse<String> byQueue = web.postForm("/jobs/bulk", "_csrf=" + token
                + "&scope=filter&action=cancel&queue=other&back=%2Fjobs%3Fqueue%3Dother");
        assertThat(byQueue.statusCode()).isEqualTo(303);
        assertThat(byQueue.headers().firstValue("Location")).hasValue("/jobs?queue=other");
        assertThat(states()).containsEntry(a, JobState.SCHEDULED).containsEntry(b, JobState.CANCELLED)
                .containsEntry(c, JobState.CANCELLED);
        assertThat(web.postForm("/jobs/bulk", "_csrf=" + token + "&scope=filter&action=cancel&all=true").statusCode())
                .isEqualTo(303);
        assertThat(states().values()).containsOnly(JobState.CANCELLED);
    }

    @Test
    void listingsCarryPreviewsOfArgsOutputAndErrorsAndTheJobItsWhole() throws Exception {
        String big = "x".repeat(10_000);
        long done = web.insert(new Greet(big));
        long failed = web.insert(new Fail("e".repeat(5_000)));
        long small = web.insertLater(new Greet("Ada"), "other");
        web.awaitState(done, JobState.COMPLETED);
        web.awaitState(failed, JobState.DISCARDED);

        HttpResponse<String> listed = web.get("/api/jobs");
        assertThat(listed.body().length()).as("a page of previews").isLessThan(4_000);
        Map<Long, JsonNode> byId = new TreeMap<>();
        WebFixture.JSON.readTree(listed.body()).get("jobs").forEach(j -> byId.put(j.get("id").asLong(), j));
        JsonNode d = byId.get(done);
        assertThat(d.has("args")).isFalse();
        assertThat(d.has("metadata")).isFalse();
        assertThat(d.get("args_preview").get("text").asText()).hasSize(256).startsWith("{\"name\":\"xxx");
        assertThat(d.get("args_preview").get("truncated").asBoolean()).isTrue();
        assertThat(d.get("args_preview").get("size").asLong()).isEqualTo(big.length() + "{\"name\":\"\"}".length());
        assertThat(d.get("output_preview").get("truncated").asBoolean()).isTrue();
        assertThat(d.get("output_preview").get("text").asText()).hasSize(256);
        assertThat(d.get("error_count").asInt()).isZero();
        assertThat(d.get("last_error").isNull()).isTrue();
        JsonNode f = byId.get(failed);
        assertThat(f.has("errors")).isFalse();
        assertThat(f.get("error_count").asInt()).isEqualTo(1);
        assertThat(f.get("last_error").get("attempt").asInt()).isEqualTo(1);
        assertThat(f.get("last_error").get("message_preview").get("text").asText()).hasSize(256);
        assertThat(f.get("last_error").get("message_preview").get("truncated").asBoolean()).isTrue();
        JsonNode s = byId.get(small);
        assertThat(s.get("args_preview").get("text").asText()).isEqualTo("{\"name\":\"Ada\"}");
        assertThat(s.get("args_preview").get("truncated").asBoolean()).isFalse();
        assertThat(s.get("output_preview").isNull()).isTrue();

        // The job itself is whole.
        JsonNode whole = web.getJson("/api/jobs/" + done);
        assertThat(whole.get("args").get("name").asText()).isEqualTo(big);
        assertThat(whole.get("output").get("greeted").asText()).isEqualTo(big);
        assertThat(web.getJson("/api/jobs/" + failed).get("errors").get(0).get("message").asText())
                .endsWith("e".repeat(5_000));
        // The jobs table shows a preview and the size; the job's page shows it whole.
        String table = web.get("/jobs").body();
        assertThat(table).doesNotContain("x".repeat(300)).contains("… (10.0 KB: the whole on the job's page)");
        assertThat(web.get("/jobs/" + done).body()).contains(big);

        assertThat(web.get("/api/jobs?limit=1000").statusCode()).isEqualTo(200);
        HttpResponse<String> tooMany = web.get("/api/jobs?limit=1001");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("limit must be a whole number from 1 to 1000");
        assertThat(web.get("/api/jobs?whole=maybe").statusCode()).isEqualTo(400);
    }

    @Test
    void aWholeListingIsForOperatorsOnly() throws Exception {
        web.close();
        web = new WebFixture(newDriver(dir), b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR)
                .basicAuth("viewer", "look", WebRole.READ_ONLY));
        long id = web.insertLater(new Greet("Ada"), "other");
        web.as("viewer", "look");
        HttpResponse<String> refused = web.get("/api/jobs?kind=greet&whole=true");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("only an operator may read a listing whole");
        assertThat(ids(web.getJson("/api/jobs?kind=greet"))).containsExactly(id);
        assertThat(ids(web.getJson("/api/jobs?kind=greet&whole=false"))).containsExactly(id);
        web.as("ops", "s3cret");
        JsonNode whole = web.getJson("/api/jobs?kind=greet&whole=true");
        assertThat(ids(whole)).containsExactly(id);
        assertThat(whole.get("partial").asBoolean()).isFalse();
    }
}
