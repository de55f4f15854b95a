package dev.runnel.web.internal;

import dev.runnel.web.Authenticator;
import dev.runnel.web.WebRole;
import dev.runnel.web.WebUser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** HTTP basic auth against accounts given in code, and the choice of authenticator. */
public final class BasicAuth {
    /** Who nobody is when no authentication is set: the dashboard is then bound to loopback by default. */
    static final WebUser LOCAL = new WebUser("local", WebRole.OPERATOR);

    /** An account: its user and password. */
    public record Account(WebUser user, String password) {
        public Account {
            if (password == null || password.isEmpty()) {
                throw new IllegalArgumentException("the password of " + user.name() + " must not be empty");
            }
        }
    }

    private BasicAuth() {}

    /** The authenticator for these settings: accounts first, then {@code custom}; everyone is local when neither is set. */
    public static Authenticator combine(Collection<Account> accounts, Optional<Authenticator> custom) {
        if (accounts.isEmpty() && custom.isEmpty()) {
            return exchange -> Optional.of(LOCAL);
        }
        Map<String, Account> byName = accounts.stream().collect(Collectors.toMap(a -> a.user().name(),
                Function.identity()));
        List<Authenticator> chain = custom.map(List::of).orElse(List.of());
        return exchange -> {
            Optional<WebUser> basic = check(byName, exchange.getRequestHeaders().getFirst("Authorization"));
            if (basic.isPresent()) {
                return basic;
            }
            for (Authenticator next : chain) {
                Optional<WebUser> user = next.authenticate(exchange);
                if (user.isPresent()) {
                    return user;
                }
            }
            return Optional.empty();
        };
    }

    private static Optional<WebUser> check(Map<String, Account> accounts, String header) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        Account account = accounts.get(decoded.substring(0, colon));
        // Compared in constant time, so the time of a refusal tells nothing of the password.
        if (account == null || !MessageDigest.isEqual(account.password().getBytes(StandardCharsets.UTF_8),
                decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        return Optional.of(account.user());
    }
}
