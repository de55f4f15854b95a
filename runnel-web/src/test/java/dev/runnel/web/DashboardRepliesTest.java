package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.JobState;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.web.RawHttp.Reply;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every reply carries and what a failure says: the Content-Security-Policy and pages it
 * allows, 400 for every malformed request, 500 with an id instead of the exception, redirects only
 * to the dashboard's own pages, rotating CSRF tokens, and a refused change that costs nothing; on
 * SQLite through real HTTP.
 */
class DashboardRepliesTest {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final Pattern INLINE = Pattern.compile(
            "\\son[a-z]+\\s*=|javascript:|<script(?![^>]*\\ssrc=)[^>]*>|\\sstyle\\s*=|<style", Pattern.CASE_INSENSITIVE);

    @TempDir
    Path dir;

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void everyReplyCarriesTheContentSecurityPolicyAndNoPageNeedsAnInlineScriptOrStyle() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            long failed = web.insert(new Fail("it broke"));
            web.awaitState(failed, JobState.DISCARDED);
            long later = web.insertLater(new Greet("later"), "other");
            for (String path : List.of("/", "/jobs", "/jobs?state=discarded", "/jobs/" + failed, "/jobs/" + later, "/queues",
                    "/clients", "/periodic", "/audit", "/jobs/confirm?action=cancel&state=scheduled", "/partials/counts",
                    "/partials/jobs", "/no/such/page", "/jobs/999999")) {
                HttpResponse<String> r = web.get(path);
                assertThat(r.headers().firstValue("Content-Security-Policy")).as(path).hasValue(CSP);
                Matcher inline = INLINE.matcher(r.body());
                assertThat(inline.find()).as(path + ": " + (inline.find(0) ? inline.group() : "")).isFalse();
            }
            for (String path : List.of("/assets/app.js", "/assets/app.css", "/api/jobs", "/api/session", "/api/jobs/x")) {
                assertThat(web.get(path).headers().firstValue("Content-Security-Policy")).as(path).hasValue(CSP);
            }
            int port = web.web.port();
            assertThat(RawHttp.get(port, "/", "evil.example").header("Content-Security-Policy")).isEqualTo(CSP);
            assertThat(RawHttp.get(port, "/jobs/%25zz", "127.0.0.1").header("Content-Security-Policy")).isEqualTo(CSP);
            // The layout tells htmx to add no style element and evaluate no expression.
            assertThat(web.get("/").body()).contains("<meta name=\"htmx-config\"").contains("\"includeIndicatorStyles\": false")
                    .contains("\"allowEval\": false");
        }
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("auth.db")),
                b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR))) {
            HttpResponse<String> challenge = web.get("/");
            assertThat(challenge.statusCode()).isEqualTo(401);
            assertThat(challenge.headers().firstValue("Content-Security-Policy")).hasValue(CSP);
        }
    }

    @Test
    void everyMalformedRequestGetsA400WithAMessageAndOneLogLine() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db"))); LogCapture log = new LogCapture()) {
            long id = web.insertLater(new Greet("keep"), "default");
            int port = web.web.port();
            for (String target : List.of("/jobs/%25zz", "/jobs?state=%25zz", "/api/jobs?state=nonsense",
                    "/api/jobs/%25zz", "/api/jobs?limit=lots", "/jobs?id=" + enc("1 OR 1=1"))) {
                Reply r = RawHttp.get(port, target, "127.0.0.1:" + port);
                assertThat(r.status()).as(target).isEqualTo(400);
                assertThat(r.body()).as(target).isNotBlank().doesNotContain("Exception");
                if (target.startsWith("/api/")) {
                    assertThat(web.JSON.readTree(r.body()).get("status").asInt()).as(target).isEqualTo(400);
                }
                assertThat(log.lines("400 GET " + target)).as(target).hasSize(1);
            }
            // A request line that is not a URI at all the JDK's server refuses itself, before any handler.
            assertThat(RawHttp.get(port, "/jobs?state=%zz", "127.0.0.1:" + port).status()).isEqualTo(400);
            String token = web.csrf();
            HttpResponse<String> form = web.postForm("/jobs/bulk", "_csrf=" + token + "&action=cancel&id=%zz");
            assertThat(form.statusCode()).isEqualTo(400);
            assertThat(form.body()).contains("id=\"error-message\"").doesNotContain("Exception");
            assertThat(log.lines("400 POST /jobs/bulk")).hasSize(1);
            for (String body : List.of("{\"action\":\"cancel\",\"ids\":{}}", "{\"action\":\"cancel\",\"ids\":{\"a\":1}}",
                    "{\"action\":\"cancel\",\"ids\":[\"" + id + "x\"]}", "{\"action\":\"cancel\",\"ids\":[1.5]}",
                    "{\"action\":\"cancel\",\"ids\":[[1]]}", "not json", "[]", "", "{\"action\":\"explode\",\"ids\":[1]}")) {
                HttpResponse<String> r = web.post("/api/jobs/bulk", body, Optional.of(token));
                assertThat(r.statusCode()).as(body).isEqualTo(400);
                JsonNode error = web.JSON.readTree(r.body());
                assertThat(error.get("error").asText()).as(body).isNotBlank().doesNotContain("Exception");
            }
            assertThat(log.lines("400 POST /api/jobs/bulk")).hasSize(9);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
            assertThat(web.getJson("/api/audit")).isEmpty();
        }
    }

    @Test
    void anInternalErrorSaysSoWithAnIdThatItsLogLineCarriesAndNothingOfTheException() throws Exception {
        Path file = dir.resolve("jobs.db");
        try (WebFixture web = new WebFixture(SqliteDriver.open(file)); LogCapture log = new LogCapture()) {
            long id = web.insertLater(new Greet("keep"), "default");
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE runnel_job RENAME TO runnel_job_gone");
            }
            Pattern errorId = Pattern.compile("internal error \\(id ([0-9a-f]{8})\\)");
            HttpResponse<String> api = web.get("/api/jobs/" + id);
            assertThat(api.statusCode()).isEqualTo(500);
            Matcher m = errorId.matcher(web.JSON.readTree(api.body()).get("error").asText());
            assertThat(m.find()).as(api.body()).isTrue();
            assertThat(api.body()).doesNotContainIgnoringCase("sql").doesNotContain("runnel_job").doesNotContain("Exception");
            assertThat(log.lines("(error " + m.group(1) + ")")).hasSize(1)
                    .allSatisfy(l -> assertThat(l).contains("ERROR").contains("500 GET /api/jobs/" + id));

            HttpResponse<String> page = web.get("/jobs/" + id);
            assertThat(page.statusCode()).isEqualTo(500);
            Matcher p = errorId.matcher(page.body());
            assertThat(p.find()).as(page.body()).isTrue();
            assertThat(page.body()).doesNotContainIgnoringCase("sqlite").doesNotContain("runnel_job_gone");
            assertThat(log.lines("(error " + p.group(1) + ")")).hasSize(1);
        }
    }

    @Test
    void theBackOfAFormLeadsOnlyToAPageOfTheDashboard() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            long id = web.insertLater(new Greet("keep"), "default");
            Map<String, String> backs = new LinkedHashMap<>();
            backs.put("/jobs?state=scheduled&queue=default", "/jobs?state=scheduled&queue=default");
            backs.put("/queues", "/queues");
            for (String foreign : List.of("//evil.example/x", "/\\evil.example/x", "\\\\evil.example/x", "/\\/evil.example",
                    "https://evil.example/", "javascript:alert(1)", "/jobs/../../evil", "/%2e%2e/evil", "/jobs\r\nSet-Cookie: x=1",
                    "/jobs\tx", "evil.example", "/jobs/\u0000")) {
                backs.put(foreign, "/jobs");
            }
            String token = web.csrf();
            backs.forEach((back, expected) -> {
                try {
                    HttpResponse<String> r = web.postForm("/jobs/bulk", "_csrf=" + token + "&action=cancel&id=" + id
                            + "&back=" + enc(back));
                    assertThat(r.statusCode()).as(back).isEqualTo(303);
                    assertThat(r.headers().firstValue("Location")).as(back).hasValue(expected);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        }
    }

    @Test
    void csrfTokensRotateAndEachStaysValidForItsUserOnly() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")),
                b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR).basicAuth("other", "pw", WebRole.OPERATOR))) {
            web.as("ops", "s3cret");
            String first = web.csrf();
            String second = web.csrf();
            Matcher meta = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\"").matcher(web.get("/jobs").body());
            assertThat(meta.find()).isTrue();
            String page = meta.group(1);
            assertThat(List.of(first, second, page)).doesNotHaveDuplicates();
            for (String token : List.of(first, second, page)) {
                long id = web.insertLater(new Greet("t"), "default");
                assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.of(token)).statusCode()).isEqualTo(200);
            }
            long id = web.insertLater(new Greet("t"), "default");
            web.as("other", "pw");
            assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.of(first)).statusCode()).isEqualTo(403);
            String tampered = first.substring(0, 3) + (first.charAt(3) == 'A' ? 'B' : 'A') + first.substring(4);
            web.as("ops", "s3cret");
            assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.of(tampered)).statusCode()).isEqualTo(403);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        }
    }

    @Test
    void aReadOnlyUsersRefusedChangeLeavesTheCachedCountsAsTheyWere() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")),
                b -> b.basicAuth("viewer", "look", WebRole.READ_ONLY).basicAuth("ops", "s3cret", WebRole.OPERATOR))) {
            long first = web.insertLater(new Greet("one"), "default");
            web.as("viewer", "look");
            String token = web.csrf();
            assertThat(web.getJson("/api/counts").get("total").get("scheduled").asLong()).isEqualTo(1);
            // Written past the dashboard: its counts show it only once their reading is renewed.
            web.insertLater(new Greet("two"), "default");
            assertThat(web.post("/api/jobs/" + first + "/cancel", "", Optional.of(token)).statusCode()).isEqualTo(403);
            assertThat(web.postForm("/jobs/" + first + "/cancel", "_csrf=" + token).statusCode()).isEqualTo(403);
            assertThat(web.getJson("/api/counts").get("total").get("scheduled").asLong()).isEqualTo(1);

            // An operator's change renews them at once.
            web.as("ops", "s3cret");
            web.postJson("/api/jobs/" + first + "/cancel", "");
            JsonNode counts = web.getJson("/api/counts").get("total");
            assertThat(counts.get("scheduled").asLong()).isEqualTo(1);
            assertThat(counts.get("cancelled").asLong()).isEqualTo(1);
        }
    }

    @Test
    void theRequestThatFollowsAnOperatorsChangeSeesItInTheCounts() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")),
                b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR))) {
            web.as("ops", "s3cret");
            for (int i = 1; i <= 40; i++) {
                long id = web.insertLater(new Greet("g" + i), "default");
                web.postJson("/api/jobs/" + id + "/cancel", "");
                assertThat(web.getJson("/api/counts").get("total").get("cancelled").asLong()).as("after change %d", i)
                        .isEqualTo(i);
            }
        }
    }
}
