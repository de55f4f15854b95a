package dev.runnel.web.internal;

import com.sun.net.httpserver.HttpExchange;
import dev.runnel.web.WebUser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** One request as the dashboard reads it: its path under the mount point, its parameters, its user. */
final class Req {
    /** A form larger than this is refused: the largest real one is a page of selected ids. */
    private static final int MAX_BODY = 1 << 20;

    final HttpExchange exchange;
    final String base;
    /** The path under the mount point as the request sent it, still percent-encoded. */
    final String path;
    final WebUser user;
    private List<String> segments;
    private Map<String, List<String>> query;
    private Map<String, List<String>> form;
    private String body;
    private Runnable beforeReply;

    /** Reads nothing that can be malformed: the path and the query are decoded when first asked for. */
    Req(HttpExchange exchange, WebUser user) {
        this.exchange = exchange;
        this.user = user;
        String context = exchange.getHttpContext().getPath();
        this.base = context.endsWith("/") ? context.substring(0, context.length() - 1) : context;
        this.path = under(exchange.getRequestURI().getRawPath(), base);
    }

    /** {@code raw} less as many segments as {@code base} has: the server matched the context on them. */
    private static String under(String raw, String base) {
        if (raw == null || raw.isEmpty()) {
            return "/";
        }
        long skip = base.chars().filter(c -> c == '/').count();
        int at = 0;
        for (long i = 0; i < skip; i++) {
            at = raw.indexOf('/', at + 1);
            if (at < 0) {
                return "/";
            }
        }
        String rest = raw.substring(at);
        return rest.isEmpty() ? "/" : rest;
    }

    WebUser user() {
        return user;
    }

    String method() {
        return exchange.getRequestMethod();
    }

    boolean isPost() {
        return "POST".equals(method());
    }

    /**
     * The path's segments, each percent-decoded once: {@code /jobs/12/retry} is [jobs, 12, retry],
     * {@code /queues/a%2Fb/pause} is [queues, a/b, pause]. Throws IllegalArgumentException naming
     * the fault of a malformed one.
     */
    synchronized List<String> segments() {
        if (segments == null) {
            List<String> parts = new ArrayList<>();
            for (String part : path.split("/")) {
                if (!part.isEmpty()) {
                    parts.add(Urls.decode(part, false, "the path segment '" + shown(part) + "'"));
                }
            }
            segments = List.copyOf(parts);
        }
        return segments;
    }

    /** Whether the path is under {@code /api}, read off the path as sent (so without decoding it). */
    boolean isApi() {
        return path.equals("/api") || path.startsWith("/api/");
    }

    /** The first value of parameter {@code name}, from the query or a posted form, blank ones as absent. */
    Optional<String> param(String name) {
        List<String> values = params(name);
        return values.stream().filter(v -> !v.isBlank()).findFirst().map(String::strip);
    }

    List<String> params(String name) {
        List<String> values = new ArrayList<>(query().getOrDefault(name, List.of()));
        if (isPost() && isForm()) {
            values.addAll(form().getOrDefault(name, List.of()));
        }
        return values;
    }

    /** The names of every parameter, from the query and a posted form, in the order they came. */
    Set<String> paramNames() {
        Set<String> names = new LinkedHashSet<>(query().keySet());
        if (isPost() && isForm()) {
            names.addAll(form().keySet());
        }
        return names;
    }

    private synchronized Map<String, List<String>> query() {
        if (query == null) {
            query = parse(exchange.getRequestURI().getRawQuery(), "the query");
        }
        return query;
    }

    String header(String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }

    boolean isForm() {
        String type = header("Content-Type");
        return type != null && type.startsWith("application/x-www-form-urlencoded");
    }

    synchronized String body() throws IOException {
        if (body == null) {
            try (InputStream in = exchange.getRequestBody()) {
                byte[] bytes = in.readNBytes(MAX_BODY + 1);
                if (bytes.length > MAX_BODY) {
                    throw new IllegalArgumentException("the request body is larger than " + MAX_BODY + " bytes");
                }
                body = new String(bytes, StandardCharsets.UTF_8);
            }
        }
        return body;
    }

    private synchronized Map<String, List<String>> form() {
        if (form == null) {
            try {
                form = parse(body(), "the form");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return form;
    }

    /**
     * Runs {@code action} once, just before the reply's headers go out: after the request's work,
     * before the client can send the request that follows it. {@code null} forgets the action.
     */
    void beforeReply(Runnable action) {
        beforeReply = action;
    }

    private void replying() {
        Runnable action = beforeReply;
        beforeReply = null;
        if (action != null) {
            action.run();
        }
    }

    void send(int status, String contentType, byte[] bytes) throws IOException {
        replying();
        var headers = exchange.getResponseHeaders();
        headers.set("Content-Type", contentType);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "same-origin");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Cache-Control", contentType.startsWith("text/html") || contentType.startsWith("application/json")
                ? "no-store" : "max-age=3600");
        boolean head = "HEAD".equals(method());
        exchange.sendResponseHeaders(status, bytes.length == 0 || head ? -1 : bytes.length);
        if (bytes.length > 0 && !head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    void redirect(String location) throws IOException {
        replying();
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(303, -1);
    }

    /**
     * {@code raw}'s {@code key=value} pairs ({@code application/x-www-form-urlencoded}, as a query
     * or a form has them), each key and value decoded once; IllegalArgumentException naming the
     * pair when one is malformed.
     */
    static Map<String, List<String>> parse(String raw, String what) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String rawKey = eq < 0 ? pair : pair.substring(0, eq);
            String key = Urls.decode(rawKey, true, what + "'s key '" + shown(rawKey) + "'");
            String value = eq < 0 ? "" : Urls.decode(pair.substring(eq + 1), true, what + "'s value of '" + shown(key) + "'");
            params.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return params;
    }

    /** {@code s} short enough for a message. */
    private static String shown(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
