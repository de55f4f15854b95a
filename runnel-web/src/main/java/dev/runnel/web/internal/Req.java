package dev.runnel.web.internal;

import com.sun.net.httpserver.HttpExchange;
import dev.runnel.web.WebUser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One request as the dashboard reads it: its path under the mount point, its parameters, its user. */
final class Req {
    /** A form larger than this is refused: the largest real one is a page of selected ids. */
    private static final int MAX_BODY = 1 << 20;

    final HttpExchange exchange;
    final String base;
    final String path;
    final WebUser user;
    private final Map<String, List<String>> query;
    private Map<String, List<String>> form;
    private String body;

    Req(HttpExchange exchange, WebUser user) {
        this.exchange = exchange;
        this.user = user;
        String context = exchange.getHttpContext().getPath();
        this.base = context.endsWith("/") ? context.substring(0, context.length() - 1) : context;
        String full = exchange.getRequestURI().getPath();
        String rest = full.length() >= base.length() ? full.substring(base.length()) : "/";
        this.path = rest.isEmpty() ? "/" : rest;
        this.query = parse(exchange.getRequestURI().getRawQuery());
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

    /** The path's segments: {@code /jobs/12/retry} is [jobs, 12, retry]. */
    List<String> segments() {
        List<String> parts = new ArrayList<>();
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                parts.add(URLDecoder.decode(part, StandardCharsets.UTF_8));
            }
        }
        return parts;
    }

    /** The first value of parameter {@code name}, from the query or a posted form, blank ones as absent. */
    Optional<String> param(String name) {
        List<String> values = params(name);
        return values.stream().filter(v -> !v.isBlank()).findFirst().map(String::strip);
    }

    List<String> params(String name) {
        List<String> values = new ArrayList<>(query.getOrDefault(name, List.of()));
        if (isPost() && isForm()) {
            values.addAll(form().getOrDefault(name, List.of()));
        }
        return values;
    }

    Map<String, List<String>> queryParams() {
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
                form = parse(body());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return form;
    }

    void send(int status, String contentType, byte[] bytes) throws IOException {
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
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(303, -1);
    }

    static Map<String, List<String>> parse(String raw) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return params;
    }
}
