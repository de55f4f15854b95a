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
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's one handler: it checks each request's Host (and a change's Origin) at the door,
 * authenticates it, checks the CSRF token of every POST, routes it to a page, a change or the API,
 * and turns failures into a status and a message: a malformed request is a 400, a failure of ours a
 * 500 with an id that the log line carries, never the exception's text.
 * Mountable under any prefix: paths are read relative to the context it is mounted at.
 */
public final class Dashboard implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
    /** How often the chart's counts are sampled: often enough for per-minute figures. */
    private static final long SAMPLE_SECONDS = 5;

    /**
     * Every reply's Content-Security-Policy: scripts, styles and requests from the dashboard itself
     * only, no inline script, handler or style, no framing, no form posted elsewhere.
     */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    private static final SecureRandom ERROR_IDS = new SecureRandom();

    private final Authenticator auth;
    private final HostCheck door;
    private final Csrf csrf;
    private final Clock clock = Clock.systemUTC();
    private final Assets assets = new Assets();
    private final Operations ops;
    private final Throughput throughput;
    private final Snapshots data;
    private final HtmlPages pages;
    private final JsonApi api;
    private ScheduledExecutorService sampler;

    /**
     * {@code allowedHosts}: the names the dashboard answers to besides localhost, its own addresses
     * and {@code bind}, the address it is bound by (a name or a literal).
     */
    public Dashboard(Runnel runnel, Authenticator auth, Set<String> allowedHosts, String bind, byte[] secret,
            Duration searchBudget) {
        this.auth = auth;
        this.door = new HostCheck(allowedHosts, bind);
        this.csrf = new Csrf(secret, clock);
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
            exchange.getResponseHeaders().set("Content-Security-Policy", CSP);
            Optional<String> refused = door.refusal(exchange);
            if (refused.isPresent()) {
                LOG.warn("dashboard: refused {} {} from {}: {}", exchange.getRequestMethod(), rawPath(exchange),
                        exchange.getRemoteAddress(), refused.get());
                reply(exchange, 403, refused.get());
                return;
            }
            Optional<WebUser> user;
            try {
                user = auth.authenticate(exchange);
            } catch (RuntimeException e) {
                LOG.warn("the authenticator failed; refusing the request", e);
                user = Optional.empty();
            }
            if (user.isEmpty()) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"Runnel\", charset=\"UTF-8\"");
                reply(exchange, 401, "authentication required");
                return;
            }
            serve(exchange, user.get());
        }
    }

    private void serve(HttpExchange exchange, WebUser user) throws IOException {
        Req req;
        List<String> s;
        try {
            req = new Req(exchange, user);
            s = req.segments();
        } catch (IllegalArgumentException e) {
            // A path or query that does not decode: there is no page to render it on.
            LOG.warn("dashboard: 400 {} {}: {}", exchange.getRequestMethod(), rawPath(exchange), loggable(e.getMessage()));
            reply(exchange, 400, "malformed request: " + e.getMessage());
            return;
        }
        boolean isApi = req.isApi();
        Page page = page(req, "Runnel", "");
        try {
            route(req, s, isApi);
        } catch (NotFoundException e) {
            fail(req, page, isApi, 404, e.getMessage());
        } catch (Forbidden e) {
            LOG.info("dashboard: 403 {} {} for {}: {}", req.method(), rawPath(exchange), user.name(), loggable(e.getMessage()));
            fail(req, page, isApi, 403, e.getMessage());
        } catch (IllegalArgumentException e) {
            LOG.warn("dashboard: 400 {} {}: {}", req.method(), rawPath(exchange), loggable(e.getMessage()));
            fail(req, page, isApi, 400, e.getMessage());
        } catch (RunnelException e) {
            // A refusal (a running job cannot be retried) has no cause; a failure below (SQL, the
            // connection) has one, and its text is not for the page.
            if (e.getCause() == null) {
                fail(req, page, isApi, 409, e.getMessage());
            } else {
                internalError(req, page, isApi, e);
            }
        } catch (RuntimeException e) {
            internalError(req, page, isApi, e);
        }
    }

    /** A 500 that says "internal error" and an id; the exception's text and trace are in the log line of that id. */
    private void internalError(Req req, Page page, boolean isApi, RuntimeException e) throws IOException {
        String id = HexFormat.of().toHexDigits(ERROR_IDS.nextInt());
        LOG.error("dashboard: 500 {} {} (error {})", req.method(), rawPath(req.exchange), id, e);
        fail(req, page, isApi, 500, "internal error (id " + id + "): the server's log has the details");
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
            // Whatever was done, even in part, shows in the counts before the reply goes out, so
            // the page or the request that follows it sees the effect; a refusal did nothing.
            req.beforeReply(data::changed);
            try {
                if (isApi) {
                    api.handle(req, s.subList(1, s.size()));
                } else {
                    post(req, s);
                }
            } catch (Forbidden e) {
                req.beforeReply(null);
                throw e;
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
            case "workflows" -> {
                if (s.size() == 1) {
                    pages.workflows(req, page(req, "Workflows", "workflows"));
                } else if (s.size() == 2) {
                    pages.workflow(req, page(req, "Workflow " + s.get(1), "workflows"), JsonApi.id(s.get(1)));
                } else {
                    throw new NotFoundException("no page " + req.path);
                }
            }
            case "batches" -> {
                if (s.size() == 1) {
                    pages.batches(req, page(req, "Batches", "batches"));
                } else if (s.size() == 2) {
                    pages.batch(req, page(req, "Batch " + s.get(1), "batches"), JsonApi.id(s.get(1)));
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
        } else if (first.equals("workflows") && s.size() == 3) {
            long id = JsonApi.id(s.get(1));
            ops.workflow(req.user(), Operations.WorkflowAction.parse(s.get(2)), id);
            req.redirect(req.base + Urls.path("workflows", id));
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
        return req.param("back").filter(b -> isOwnPath(req.base, b)).orElse(req.base + fallback);
    }

    /**
     * Whether {@code target} is a path of the dashboard mounted at {@code base} (such as
     * {@code /ops/runnel}, or empty at the root), to redirect to: an absolute path under the base, with
     * no scheme, host, backslash, control character or dot segment that could lead a browser elsewhere.
     */
    static boolean isOwnPath(String base, String target) {
        if (!target.startsWith(base + "/") || target.startsWith("//") || target.startsWith(base + "//")) {
            return false;
        }
        if (target.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '\\')) {
            return false;
        }
        int end = target.indexOf('?');
        String path = end < 0 ? target : target.substring(0, end);
        for (String segment : path.split("/", -1)) {
            String plain = segment.replace("%2e", ".").replace("%2E", ".");
            if (plain.equals(".") || plain.equals("..")) {
                return false;
            }
        }
        try {
            URI uri = new URI(target);
            return uri.getScheme() == null && uri.getRawAuthority() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private Page page(Req req, String title, String active) {
        return new Page(req.base, title, active, req.user, csrf.token(req.user.name()), clock.instant());
    }

    /** A short reply where there is no page to render it on: JSON under {@code /api}, else plain text. */
    private static void reply(HttpExchange exchange, int status, String message) throws IOException {
        boolean isApi = rawPath(exchange).startsWith(base(exchange) + "/api/");
        String type = isApi ? "application/json" : "text/plain; charset=utf-8";
        byte[] body = (isApi ? Json.write(Map.of("error", message, "status", status)) : message + "\n")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            exchange.getResponseBody().write(body);
        }
    }

    private static String base(HttpExchange exchange) {
        String context = exchange.getHttpContext().getPath();
        return context.endsWith("/") ? context.substring(0, context.length() - 1) : context;
    }

    /** The request's path and query as sent, for the log. */
    private static String rawPath(HttpExchange exchange) {
        return loggable(exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
    }

    /** {@code text} fit for one log line: control characters, lone surrogates and non-characters replaced, at most 300 characters. */
    static String loggable(String text) {
        if (text == null) {
            return "";
        }
        String line = text.codePoints().map(c -> Character.isISOControl(c) || !Character.isDefined(c)
                        || Character.getType(c) == Character.SURROGATE || (c & 0xFFFE) == 0xFFFE ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    private void fail(Req req, Page page, boolean isApi, int status, String message) throws IOException {
        if (isApi) {
            JsonApi.send(req, status, Map.of("error", message == null ? "error" : message, "status", status));
        } else {
            pages.error(req, page, status, message == null ? "error" : message);
        }
    }
}
