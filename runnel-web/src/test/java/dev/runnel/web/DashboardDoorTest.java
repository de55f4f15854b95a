package dev.runnel.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.runnel.JobState;
import dev.runnel.sqlite.SqliteDriver;
import dev.runnel.web.RawHttp.Reply;
import dev.runnel.web.WebFixture.Greet;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The door, through requests written by hand as a browser (or a page that rebinds its name to the
 * dashboard's address) sends them: which Host is answered, where a change may come from, and when
 * a dashboard without users refuses to serve, on SQLite.
 */
class DashboardDoorTest {
    @TempDir
    Path dir;

    private static Map<String, String> headers(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static Reply post(int port, String path, String host, String origin, String token, String body)
            throws Exception {
        Map<String, String> h = headers("Host", host, "Content-Type", "application/json", "X-CSRF-Token", token);
        if (origin != null) {
            h.put("Origin", origin);
        }
        return RawHttp.send(port, "POST", path, h, body);
    }

    @Test
    void aRequestNamingAForeignHostIsRefusedAndChangesNothing() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db"))); LogCapture log = new LogCapture()) {
            long id = web.insertLater(new Greet("keep"), "default");
            int port = web.web.port();
            String evil = "evil.example:" + port;
            Reply session = RawHttp.send(port, "GET", "/api/session", headers("Host", evil, "Origin", "http://" + evil), null);
            assertThat(session.status()).isEqualTo(403);
            assertThat(session.body()).doesNotContain("csrf_token").contains("evil.example").hasSizeLessThan(400);
            assertThat(RawHttp.get(port, "/", evil).status()).isEqualTo(403);
            assertThat(RawHttp.get(port, "/jobs/" + id, evil).body()).doesNotContain("keep");
            assertThat(RawHttp.get(port, "/assets/app.js", evil).status()).isEqualTo(403);

            // A token read by other means does not help: the Host is refused first.
            String token = web.csrf();
            assertThat(post(port, "/api/jobs/" + id + "/cancel", evil, "http://" + evil, token, "").status()).isEqualTo(403);
            assertThat(post(port, "/api/jobs/bulk", evil, "http://" + evil, token,
                    "{\"action\":\"delete\",\"filter\":{\"state\":\"scheduled\"}}").status()).isEqualTo(403);
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
            assertThat(web.getJson("/api/audit")).isEmpty();
            assertThat(log.lines("refused POST /api/jobs/" + id + "/cancel")).hasSize(1);
            assertThat(log.lines("refused GET /api/session")).hasSize(1).allSatisfy(l -> assertThat(l).contains("evil.example"));

            for (String host : List.of("127.0.0.1.evil.example:" + port, "localhost.evil.example", "evil.example",
                    "10.1.2.3:" + port, "user@127.0.0.1:" + port, "127.0.0.1:" + port + "/x", "")) {
                assertThat(RawHttp.get(port, "/api/session", host).status()).as(host).isEqualTo(403);
            }
            assertThat(RawHttp.get(port, "/api/session", null).status()).as("no Host").isEqualTo(403);
        }
    }

    @Test
    void localhostAndTheLoopbackAddressesAreAnswered() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            int port = web.web.port();
            for (String host : List.of("127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "localhost.:" + port,
                    "[::1]:" + port, "localhost", "127.0.0.1")) {
                Reply r = RawHttp.get(port, "/api/session", host);
                assertThat(r.status()).as(host).isEqualTo(200);
                assertThat(r.body()).contains("csrf_token");
            }
        }
    }

    @Test
    void aChangeMustComeFromAPageOfTheSameHostAndPort() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            long id = web.insertLater(new Greet("keep"), "default");
            int port = web.web.port();
            String host = "127.0.0.1:" + port;
            String token = web.csrf();
            String cancel = "/api/jobs/" + id + "/cancel";
            for (String origin : new String[] {null, "null", "http://127.0.0.1:" + (port == 65_535 ? port - 1 : port + 1),
                    "http://localhost:" + port, "http://evil.example:" + port, "http://127.0.0.1", "file://",
                    "not a url"}) {
                Reply r = post(port, cancel, host, origin, token, "");
                assertThat(r.status()).as(String.valueOf(origin)).isEqualTo(403);
                assertThat(r.body()).as(String.valueOf(origin)).contains("page of this dashboard");
            }
            Reply fromReferer = RawHttp.send(port, "POST", cancel, headers("Host", host, "X-CSRF-Token", token,
                    "Referer", "http://127.0.0.1:" + port + "/jobs/" + id), "");
            assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
            assertThat(fromReferer.status()).isEqualTo(200);
            Reply foreignReferer = RawHttp.send(port, "POST", cancel, headers("Host", host, "X-CSRF-Token", token,
                    "Referer", "http://evil.example/page"), "");
            assertThat(foreignReferer.status()).isEqualTo(403);

            long other = web.insertLater(new Greet("other"), "default");
            assertThat(post(port, "/api/jobs/" + other + "/cancel", "localhost:" + port, "http://localhost:" + port, token, "")
                    .status()).isEqualTo(200);
            assertThat(web.getJson("/api/audit")).hasSize(2);
        }
    }

    @Test
    void allowedHostsAreAnsweredAndTheirPagesMayChangeThingsAsAProxyShowsThem() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")),
                b -> b.allowedHost("Runnel.Example.com", "[fd00::5]"))) {
            int port = web.web.port();
            assertThat(RawHttp.get(port, "/api/session", "runnel.example.com").status()).isEqualTo(200);
            assertThat(RawHttp.get(port, "/api/session", "RUNNEL.example.com:443").status()).isEqualTo(200);
            assertThat(RawHttp.get(port, "/api/session", "[fd00::5]:" + port).status()).isEqualTo(200);
            assertThat(RawHttp.get(port, "/api/session", "other.example.com").status()).isEqualTo(403);
            assertThat(RawHttp.get(port, "/api/session", "example.com").status()).isEqualTo(403);

            String token = web.csrf();
            long a = web.insertLater(new Greet("a"), "default");
            long b = web.insertLater(new Greet("b"), "default");
            // A proxy that passes the Host on, https in front, http behind.
            assertThat(post(port, "/api/jobs/" + a + "/cancel", "runnel.example.com", "https://runnel.example.com", token, "")
                    .status()).isEqualTo(200);
            // One that does not: the page is still of an allowed name.
            assertThat(post(port, "/api/jobs/" + b + "/cancel", "127.0.0.1:" + port, "https://runnel.example.com", token, "")
                    .status()).isEqualTo(200);
            assertThat(web.runnel.jobs().get(a).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
            assertThat(web.runnel.jobs().get(b).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
            long c = web.insertLater(new Greet("c"), "default");
            assertThat(post(port, "/api/jobs/" + c + "/cancel", "runnel.example.com", "https://other.example.com", token, "")
                    .status()).isEqualTo(403);
            assertThat(web.runnel.jobs().get(c).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
        }
    }

    @Test
    void anAllowedHostIsANameOrAnAddressAlone() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")))) {
            for (String bad : new String[] {"", " ", "http://runnel.example.com", "runnel.example.com:8080",
                    "runnel.example.com/x", "*.example.com", "a b"}) {
                assertThatThrownBy(() -> RunnelWeb.builder(web.runnel).allowedHost(bad)).as(bad)
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed host");
            }
        }
    }

    @Test
    void mountedInAnApplicationsServerTheSameChecksHold() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db")), b -> b.allowedHost("app.example.com"))) {
            long id = web.insertLater(new Greet("keep"), "default");
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/ops/runnel", web.web.handler());
            server.start();
            try {
                int port = server.getAddress().getPort();
                assertThat(RawHttp.get(port, "/ops/runnel/api/session", "evil.example:" + port).status()).isEqualTo(403);
                assertThat(RawHttp.get(port, "/ops/runnel/jobs", "app.example.com").status()).isEqualTo(200);
                String token = web.csrf();
                String cancel = "/ops/runnel/api/jobs/" + id + "/cancel";
                assertThat(post(port, cancel, "evil.example:" + port, "http://evil.example:" + port, token, "").status())
                        .isEqualTo(403);
                assertThat(post(port, cancel, "127.0.0.1:" + port, null, token, "").status()).isEqualTo(403);
                assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
                assertThat(post(port, cancel, "app.example.com", "https://app.example.com", token, "").status()).isEqualTo(200);
                assertThat(web.runnel.jobs().get(id).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
            } finally {
                server.stop(0);
            }
        }
    }

    @Test
    void onANetworkAddressItServesOnlyWithUsersOrWhenAllowedToGoWithout() throws Exception {
        try (WebFixture web = new WebFixture(SqliteDriver.open(dir.resolve("jobs.db"))); LogCapture log = new LogCapture()) {
            RunnelWeb open = RunnelWeb.builder(web.runnel).bind("0.0.0.0").port(0).build();
            assertThatThrownBy(open::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("0.0.0.0").hasMessageContaining("basicAuth").hasMessageContaining("allowAnonymous()");
            assertThat(open.port()).isEqualTo(-1);
            open.close();

            try (RunnelWeb guarded = RunnelWeb.builder(web.runnel).bind("0.0.0.0").port(0)
                    .basicAuth("ops", "s3cret", WebRole.OPERATOR).build().start()) {
                assertThat(guarded.address().getAddress().isAnyLocalAddress()).isTrue();
                assertThat(RawHttp.get(guarded.port(), "/api/session", "127.0.0.1:" + guarded.port()).status()).isEqualTo(401);
            }
            assertThat(log.lines("has no users")).isEmpty();

            try (RunnelWeb anonymous = RunnelWeb.builder(web.runnel).bind("0.0.0.0").port(0).allowAnonymous().build().start()) {
                assertThat(anonymous.address().getAddress().isAnyLocalAddress()).isTrue();
                assertThat(anonymous.address().getPort()).isEqualTo(anonymous.port()).isPositive();
                assertThat(RawHttp.get(anonymous.port(), "/api/session", "127.0.0.1:" + anonymous.port()).status())
                        .isEqualTo(200);
                assertThat(RawHttp.get(anonymous.port(), "/api/session", "evil.example").status()).isEqualTo(403);
            }
            assertThat(log.lines("has no users")).hasSize(1).allSatisfy(l -> assertThat(l).contains("WARN")
                    .contains("0.0.0.0").contains("allowAnonymous"));
        }
    }
}
