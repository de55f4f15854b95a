package dev.runnel.web.internal;

import com.sun.net.httpserver.HttpExchange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The door: which {@code Host} a request may name, and where a change may come from. A page of
 * another site cannot read the dashboard's answers, unless its name is made to point at the
 * dashboard's address (DNS rebinding): the browser then sends the other site's name as the Host.
 * So the dashboard answers only to {@code localhost}, a loopback address, the address the request
 * came in on, the name it was bound by, and the names the operator allows. A change (any method but
 * GET and HEAD) must also say, by its {@code Origin} or else its {@code Referer}, that it comes from
 * a page of this host and port, or of an allowed name.
 */
public final class HostCheck {
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9_-]*[a-z0-9_])?(\\.[a-z0-9]([a-z0-9_-]*[a-z0-9_])?)*");
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    /** A host and its port (-1 when the header gave none), the host lower-case, IPv6 without brackets. */
    record Authority(String host, int port) {}

    private final Set<String> allowed;
    private final Optional<String> boundName;

    /**
     * {@code allowed}: the names (or addresses) the operator allows, besides the implicit ones;
     * {@code bind}: the address the dashboard was bound by, which it answers to when it is a name.
     */
    HostCheck(Set<String> allowed, String bind) {
        this.allowed = allowed.stream().map(HostCheck::normalize).collect(java.util.stream.Collectors.toUnmodifiableSet());
        String b = bind.strip().toLowerCase(Locale.ROOT);
        this.boundName = NAME.matcher(b).matches() && literal(b).isEmpty() ? Optional.of(b) : Optional.empty();
    }

    /** A host name or address as {@code allowedHost} takes it, normalised; throws when it is neither. */
    public static String normalize(String host) {
        String h = host == null ? "" : host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (!NAME.matcher(h).matches() && literal(h).isEmpty()) {
            throw new IllegalArgumentException("an allowed host is a name or an address without scheme, port or path, was '"
                    + host + "'");
        }
        return h;
    }

    /** Why {@code exchange} is refused at the door, or empty to let it in. */
    Optional<String> refusal(HttpExchange exchange) {
        List<String> hosts = exchange.getRequestHeaders().get("Host");
        if (hosts == null || hosts.size() != 1) {
            return Optional.of("a request must name one Host");
        }
        Optional<Authority> host = authority(hosts.getFirst());
        if (host.isEmpty() || !answersTo(host.get().host(), exchange.getLocalAddress())) {
            return Optional.of("Host " + Dashboard.loggable(hosts.getFirst()) + " is not a name of this dashboard: it answers to"
                    + " localhost, its own address and the hosts the operator allows (--allowed-host)");
        }
        String method = exchange.getRequestMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            return Optional.empty();
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String header = "Origin";
        if (origin == null || origin.isBlank()) {
            origin = exchange.getRequestHeaders().getFirst("Referer");
            header = "Referer";
        }
        if (origin == null || origin.isBlank()) {
            return Optional.of("a change must come from a page of this dashboard: it carries neither Origin nor Referer");
        }
        if (!sameSite(origin.strip(), host.get())) {
            return Optional.of("a change must come from a page of this dashboard, not from " + header + " "
                    + Dashboard.loggable(origin));
        }
        return Optional.empty();
    }

    private boolean answersTo(String host, InetSocketAddress local) {
        if (host.equals("localhost") || allowed.contains(host) || boundName.filter(host::equals).isPresent()) {
            return true;
        }
        Optional<InetAddress> address = literal(host);
        return address.isPresent() && (address.get().isLoopbackAddress()
                || local != null && address.get().equals(local.getAddress()));
    }

    /** Whether the page at {@code url} (an Origin or a Referer) is of {@code host}, or of an allowed name. */
    private boolean sameSite(String url, Authority host) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return false;
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            return false;
        }
        String pageHost = uri.getHost().toLowerCase(Locale.ROOT);
        if (pageHost.startsWith("[") && pageHost.endsWith("]")) {
            pageHost = pageHost.substring(1, pageHost.length() - 1);
        }
        if (allowed.contains(pageHost)) {
            // A name the operator allows, as a proxy in front may show it: https on 443 to an http port behind.
            return true;
        }
        int defaultPort = scheme.equals("https") ? 443 : 80;
        int pagePort = uri.getPort() < 0 ? defaultPort : uri.getPort();
        int hostPort = host.port() < 0 ? defaultPort : host.port();
        return pageHost.equals(host.host()) && pagePort == hostPort;
    }

    /** The host and port of a Host header, or empty when it is not one. */
    static Optional<Authority> authority(String header) {
        String h = header.strip().toLowerCase(Locale.ROOT);
        String host;
        String port = "";
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            if (close < 0) {
                return Optional.empty();
            }
            host = h.substring(1, close);
            String rest = h.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return Optional.empty();
                }
                port = rest.substring(1);
            }
            if (literal(host).isEmpty()) {
                return Optional.empty();
            }
        } else {
            int colon = h.indexOf(':');
            host = colon < 0 ? h : h.substring(0, colon);
            port = colon < 0 ? "" : h.substring(colon + 1);
            if (host.endsWith(".")) {
                host = host.substring(0, host.length() - 1);
            }
            if (!NAME.matcher(host).matches()) {
                return Optional.empty();
            }
        }
        int p = -1;
        if (!port.isEmpty()) {
            if (port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            p = Integer.parseInt(port);
        }
        return Optional.of(new Authority(host, p));
    }

    /** The address {@code host} is written as (dotted IPv4, or IPv6), never looked up by name. */
    private static Optional<InetAddress> literal(String host) {
        if (!IPV4.matcher(host).matches() && !(host.contains(":") && host.chars().allMatch(c ->
                Character.digit(c, 16) >= 0 || c == ':' || c == '.' || c == '%'))) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.ofLiteral(host));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
