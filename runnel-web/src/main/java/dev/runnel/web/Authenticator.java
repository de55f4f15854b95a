package dev.runnel.web;

import com.sun.net.httpserver.HttpExchange;
import java.util.Optional;

/**
 * Decides who sends a request to the dashboard, from its headers (a session cookie, a proxy's
 * header, basic auth), or that nobody known does: the request is then refused with 401 and a
 * basic-auth challenge. Called once per request, on its virtual thread; it must not read the body.
 */
@FunctionalInterface
public interface Authenticator {
    /** The user sending {@code exchange}, or empty to refuse it. */
    Optional<WebUser> authenticate(HttpExchange exchange);
}
