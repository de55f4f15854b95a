package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.Audit;
import dev.runnel.AuditRow;
import dev.runnel.InsertOptions;
import dev.runnel.JobState;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
        // Counted before a bulk change: its matches' ids read (here all of them in the time allowed).
        JsonNode count = web.getJson("/api/jobs/count?kind=fail");
        assertThat(count.get("count").asLong()).isEqualTo(1);
        assertThat(count.get("at_least").asBoolean()).isFalse();
        // The page says so, and links to the rest.
        String html = web.get("/jobs?kind=fail").body();
        assertThat(html).contains("No match among the jobs searched so far").contains("Search older jobs")
                .contains("after=" + first.get("next_after").asLong());
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
}
