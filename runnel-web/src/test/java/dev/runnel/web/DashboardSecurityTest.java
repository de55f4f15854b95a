package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobState;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.web.WebFixture.Fail;
import dev.runnel.web.WebFixture.Greet;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Escaping, CSRF, authentication and roles, on SQLite through real HTTP. */
class DashboardSecurityTest {
    private static final String SCRIPT = "<script>alert('x')</script>";

    @TempDir
    Path dir;

    @Test
    void aJobsArgsAndErrorAreShownAsTextNeverAsMarkup() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            long id = web.insert(new Fail(SCRIPT + "<img src=x onerror=alert(1)>"));
            web.awaitState(id, JobState.DISCARDED);
            long other = web.insertLater(new Greet(SCRIPT), "default");
            for (String path : new String[] {"/jobs/" + id, "/jobs/" + other, "/jobs", "/jobs?state=discarded",
                    "/jobs?kind=" + java.net.URLEncoder.encode(SCRIPT, "UTF-8")}) {
                String html = web.get(path).body();
                assertThat(html).as(path).doesNotContain("<script>alert").doesNotContain("<img src=x");
            }
            assertThat(web.get("/jobs/" + id).body()).contains("&lt;script&gt;alert('x')&lt;/script&gt;");
            assertThat(web.get("/jobs?args=" + java.net.URLEncoder.encode("name=" + SCRIPT, "UTF-8")).body())
                    .contains("&lt;script&gt;").doesNotContain("<script>alert");
        }
    }

    @Test
    void aChangeWithoutTheCsrfTokenIsRefusedAndChangesNothing() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            long id = web.insertLater(new Greet("keep"), "default");
            assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.empty()).statusCode()).isEqualTo(403);
            assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.of("forged")).statusCode()).isEqualTo(403);
            HttpResponse<String> form = web.postForm("/jobs/" + id + "/cancel", "_csrf=wrong");
            assertThat(form.statusCode()).isEqualTo(403);
            assertThat(form.body()).contains("CSRF");
            assertThat(web.postForm("/jobs/bulk", "action=delete&id=" + id).statusCode()).isEqualTo(403);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
            assertThat(web.getJson("/api/audit")).isEmpty();
            // A GET never changes anything, whatever it asks for.
            assertThat(web.get("/jobs/" + id + "/cancel").statusCode()).isEqualTo(404);

            HttpResponse<String> ok = web.postForm("/jobs/" + id + "/cancel", "_csrf=" + web.csrf());
            assertThat(ok.statusCode()).isEqualTo(303);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
        }
    }

    @Test
    void basicAuthAndRoles() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")),
                b -> b.basicAuth("ops", "s3cret", WebRole.OPERATOR).basicAuth("viewer", "look", WebRole.READ_ONLY))) {
            long id = web.insertLater(new Greet("guarded"), "default");
            HttpResponse<String> anonymous = web.get("/api/jobs");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
            assertThat(web.as("ops", "wrong").get("/").statusCode()).isEqualTo(401);

            web.as("viewer", "look");
            assertThat(web.get("/jobs").body()).doesNotContain("name=\"action\"").contains("(read-only)");
            assertThat(web.post("/api/jobs/" + id + "/cancel", "", Optional.of(web.csrf())).statusCode()).isEqualTo(403);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);

            web.as("ops", "s3cret");
            assertThat(web.get("/jobs").body()).contains("name=\"action\"");
            assertThat(web.postJson("/api/jobs/" + id + "/cancel", "").get("state").asText()).isEqualTo("cancelled");
            assertThat(web.getJson("/api/audit").get(0).get("actor").asText()).isEqualTo("ops");
        }
    }

    @Test
    void bindsToLoopbackByDefaultAndMountsUnderAPrefix() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            assertThat(web.web.url()).startsWith("http://127.0.0.1:");
            com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/ops/runnel", web.web.handler());
            server.start();
            try {
                String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/ops/runnel";
                var client = java.net.http.HttpClient.newHttpClient();
                var page = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/jobs")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.body()).contains("href=\"/ops/runnel/queues\"").contains("src=\"/ops/runnel/assets/htmx.min.js\"");
                var api = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/api/jobs")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(api.statusCode()).isEqualTo(200);
                assertThat(api.body()).startsWith("{\"jobs\":");
            } finally {
                server.stop(0);
            }
        }
    }
}
