package dev.runnel.web.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.RunnelException;
import dev.runnel.web.Authenticator;
import dev.runnel.web.WebUser;
import dev.runnel.web.internal.Operations.Forbidden;
import dev.runnel.web.internal.Operations.JobAction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's one handler: it authenticates each request, checks the CSRF token of every
 * POST, routes it to a page, a change or the API, and turns failures into a status and a message.
 * Mountable under any prefix: paths are read relative to the context it is mounted at.
 */
public final class Dashboard implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
    /** How often the chart's counts are sampled: often enough for per-minute figures. */
    private static final long SAMPLE_SECONDS = 5;

    private final Authenticator auth;
    private final Csrf csrf;
    private final Clock clock = Clock.systemUTC();
    private final Assets assets = new Assets();
    private final Operations ops;
    private final Throughput throughput;
    private final Snapshots data;
    private final HtmlPages pages;
    private final JsonApi api;
    private ScheduledExecutorService sampler;

    public Dashboard(Runnel runnel, Authenticator auth, byte[] secret, Duration searchBudget) {
        this.auth = auth;
        this.csrf = new Csrf(secret);
        this.throughput = new Throughput(runnel.jobs(), clock);
        this.data = new Snapshots(runnel, clock);
        this.ops = new Operations(runnel, data::counts, searchBudget);
        this.pages = new HtmlPages(runnel, data, ops);
        this.api = new JsonApi(runnel, data, ops, throughput, csrf, clock);
    }

    /** Starts sampling the chart's counts; idempotent. */
    public synchronized void start() {
        if (sampler == null) {
            sampler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("runnel-web-sampler")
                    .daemon().factory());
            sampler.scheduleWithFixedDelay(throughput::sample, 0, SAMPLE_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Stops the sampler; idempotent. */
    public synchronized void stop() {
        if (sampler != null) {
            sampler.shutdownNow();
            sampler = null;
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        // Mounted in someone else's server, the sampler starts with the first request.
        start();
        try (exchange) {
            Optional<WebUser> user;
            try {
                user = auth.authenticate(exchange);
            } catch (RuntimeException e) {
                LOG.warn("the authenticator failed; refusing the request", e);
                user = Optional.empty();
            }
            if (user.isEmpty()) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"Runnel\", charset=\"UTF-8\"");
                byte[] body = "authentication required\n".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
                exchange.sendResponseHeaders(401, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            Req req = new Req(exchange, user.get());
            boolean isApi = req.isApi();
            Page page = page(req, "Runnel", "");
            try {
                route(req, req.segments(), isApi);
            } catch (NotFoundException e) {
                fail(req, page, isApi, 404, e.getMessage());
            } catch (Forbidden e) {
                fail(req, page, isApi, 403, e.getMessage());
            } catch (IllegalArgumentException e) {
                fail(req, page, isApi, 400, e.getMessage());
            } catch (RunnelException e) {
                fail(req, page, isApi, 409, e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("dashboard request {} {} failed", req.method(), req.path, e);
                fail(req, page, isApi, 500, "internal error: " + e);
            }
        }
    }

    private void route(Req req, List<String> s, boolean isApi) throws IOException {
        if (!s.isEmpty() && s.getFirst().equals("assets") && s.size() == 2) {
            Assets.Asset a = assets.get(s.get(1)).orElseThrow(() -> new NotFoundException("no asset " + s.get(1)));
            req.send(200, a.type(), a.bytes());
            return;
        }
        if (req.isPost()) {
            String token = Optional.ofNullable(req.header(Csrf.HEADER)).orElseGet(() ->
                    req.isForm() ? req.param(Csrf.FIELD).orElse(null) : null);
            if (!csrf.valid(req.user().name(), token)) {
                throw new Forbidden("missing or stale CSRF token: reload the page and try again");
            }
        } else if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
            throw new IllegalArgumentException("method " + req.method() + " is not allowed here");
        }
        if (req.isPost()) {
            try {
                if (isApi) {
                    api.handle(req, s.subList(1, s.size()));
                } else {
                    post(req, s);
                }
            } finally {
                data.changed();
            }
            return;
        }
        if (isApi) {
            api.handle(req, s.subList(1, s.size()));
            return;
        }
        String first = s.isEmpty() ? "" : s.getFirst();
        switch (first) {
            case "" -> pages.overview(req, page(req, "Overview", "overview"));
            case "partials" -> {
                String which = s.size() > 1 ? s.get(1) : "";
                switch (which) {
                    case "counts" -> pages.countsPartial(req, page(req, "Overview", "overview"));
                    case "jobs" -> pages.jobs(req, page(req, "Jobs", "jobs"), true);
                    default -> throw new NotFoundException("no partial " + which);
                }
            }
            case "jobs" -> {
                if (s.size() == 1) {
                    pages.jobs(req, page(req, "Jobs", "jobs"), false);
                } else if (s.get(1).equals("confirm")) {
                    pages.confirm(req, page(req, "Confirm", "jobs"));
                } else if (s.size() == 2) {
                    pages.job(req, page(req, "Job " + s.get(1), "jobs"), JsonApi.id(s.get(1)));
                } else {
                    throw new NotFoundException("no page " + req.path);
                }
            }
            case "queues" -> pages.queues(req, page(req, "Queues", "queues"));
            case "clients" -> pages.clients(req, page(req, "Clients", "clients"));
            case "periodic" -> pages.periodic(req, page(req, "Periodic jobs", "periodic"));
            case "audit" -> pages.audit(req, page(req, "Audit log", "audit"));
            default -> throw new NotFoundException("no page " + req.path);
        }
    }

    /** The HTML forms' changes: each redirects back to a page (POST, then redirect, then GET). */
    private void post(Req req, List<String> s) throws IOException {
        String first = s.isEmpty() ? "" : s.getFirst();
        if (first.equals("jobs") && s.size() == 2 && s.get(1).equals("bulk")) {
            JobAction action = JobAction.parse(req.param("action").orElse(""));
            if (req.param("scope").orElse("").equals("filter")) {
                ops.filter(req.user(), action, JobFilter.bulkForm(req));
            } else {
                long[] ids = req.params("id").stream().filter(v -> !v.isBlank()).mapToLong(JsonApi::id).toArray();
                ops.selection(req.user(), action, ids);
            }
            req.redirect(back(req, "/jobs"));
        } else if (first.equals("jobs") && s.size() == 3) {
            long id = JsonApi.id(s.get(1));
            JobAction action = JobAction.parse(s.get(2));
            ops.one(req.user(), action, id);
            req.redirect(req.base + (action == JobAction.DELETE ? "/jobs" : "/jobs/" + id));
        } else if (first.equals("queues") && s.size() == 3) {
            ops.queue(req.user(), s.get(1), JsonApi.pauseOrResume(s.get(2)));
            req.redirect(req.base + "/queues");
        } else if (first.equals("periodic") && s.size() == 3) {
            ops.periodic(req.user(), s.get(1), JsonApi.pauseOrResume(s.get(2)));
            req.redirect(req.base + "/periodic");
        } else {
            throw new NotFoundException("nothing to post to at " + req.path);
        }
    }

    /** The page to go back to: the form's {@code back}, if it is a path of this dashboard, else {@code fallback}. */
    private static String back(Req req, String fallback) {
        Optional<String> back = req.param("back");
        if (back.isPresent() && back.get().startsWith(req.base + "/") && !back.get().startsWith("//")) {
            return back.get();
        }
        return req.base + fallback;
    }

    private Page page(Req req, String title, String active) {
        return new Page(req.base, title, active, req.user, csrf.token(req.user.name()), clock.instant());
    }

    private void fail(Req req, Page page, boolean isApi, int status, String message) throws IOException {
        if (isApi) {
            JsonApi.send(req, status, Map.of("error", message == null ? "error" : message, "status", status));
        } else {
            pages.error(req, page, status, message == null ? "error" : message);
        }
    }
}
