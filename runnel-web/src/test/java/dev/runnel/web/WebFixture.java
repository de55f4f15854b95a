package dev.runnel.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.testkit.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A client of a real database working two queues with test workers, and a dashboard on a free
 * port in front of it, with an HTTP client that talks to it as a browser or a script would.
 */
final class WebFixture implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** Completes, recording its name as output. */
    record Greet(String name) implements JobArgs {
        @Override
        public String kind() {
            return "greet";
        }
    }

    /** Fails every attempt with its note as the message; one attempt, so it ends discarded. */
    record Fail(String note) implements JobArgs {
        @Override
        public String kind() {
            return "fail";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().maxAttempts(1).build();
        }
    }

    /** A job of any kind: its kind is what the test names it, so no worker runs it. */
    record Named(String kind, String note) implements JobArgs {}

    final Runnel runnel;
    final RunnelWeb web;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Optional<String> auth = Optional.empty();

    WebFixture(Driver driver, java.util.function.UnaryOperator<RunnelWeb.Builder> settings) {
        this(driver, java.util.List.of(), settings);
    }

    /** Also works {@code queues}, one job at a time each. */
    WebFixture(Driver driver, java.util.List<String> queues, java.util.function.UnaryOperator<RunnelWeb.Builder> settings) {
        var builder = Runnel.builder().driver(driver).autoMigrate(true)
                .queue("default", 4).queue("other", 2)
                .worker(Greet.class, job -> job.recordOutput(java.util.Map.of("greeted", job.args().name())))
                .worker(Fail.class, job -> {
                    throw new IllegalStateException(job.args().note());
                });
        queues.forEach(q -> builder.queue(q, 1));
        runnel = builder.build();
        runnel.start();
        web = settings.apply(RunnelWeb.builder(runnel).port(0)).build().start();
    }

    WebFixture(Driver driver) {
        this(driver, b -> b);
    }

    /** Sends basic auth as {@code user} from now on. */
    WebFixture as(String user, String password) {
        auth = Optional.of("Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes()));
        return this;
    }

    String url(String path) {
        return web.url() + (path.startsWith("/") ? path.substring(1) : path);
    }

    /** The dashboard's origin, which a browser sends with every POST of its pages. */
    String origin() {
        return web.url().substring(0, web.url().length() - 1);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
    }

    JsonNode getJson(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    String csrf() throws IOException, InterruptedException {
        return getJson("/api/session").get("csrf_token").asText();
    }

    HttpResponse<String> post(String path, String json, Optional<String> token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path)))
                .header("Content-Type", "application/json")
                .header("Origin", origin())
                .POST(HttpRequest.BodyPublishers.ofString(json));
        token.ifPresent(t -> b.header("X-CSRF-Token", t));
        return send(b);
    }

    JsonNode postJson(String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> r = post(path, json, Optional.of(csrf()));
        if (r.statusCode() != 200) {
            throw new AssertionError("POST " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    HttpResponse<String> postForm(String path, String form) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(url(path)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", origin())
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        auth.ifPresent(a -> b.header("Authorization", a));
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    long insert(JobArgs args) {
        return runnel.insert(args).id();
    }

    long insert(JobArgs args, InsertOptions options) {
        return runnel.insert(args, options).id();
    }

    /** A job held for an hour: scheduled, so it stays put for a cancel or a listing. */
    long insertLater(JobArgs args, String queue) {
        return insert(args, InsertOptions.builder().queue(queue).scheduledAt(Instant.now().plusSeconds(3_600)).build());
    }

    JobRow awaitState(long id, JobState state) {
        Await.until("job " + id + " " + state.dbName(),
                () -> runnel.jobs().get(id).map(j -> j.state() == state).orElse(false));
        return runnel.jobs().get(id).orElseThrow();
    }

    @Override
    public void close() {
        web.close();
        runnel.close();
    }
}
