package dev.runnel.web;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.runnel.Jobs;
import dev.runnel.Runnel;
import dev.runnel.web.internal.BasicAuth;
import dev.runnel.web.internal.Dashboard;
import dev.runnel.web.internal.HostCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runnel's dashboard and its JSON API, for a {@link Runnel} client (one that only inserts will do):
 * on its own port on the JDK's HTTP server, a virtual thread per request,
 * <pre>{@code
 * try (RunnelWeb web = RunnelWeb.builder(runnel).port(8080).build().start()) {
 *     System.out.println("dashboard at " + web.url());
 *     ...
 * }
 * }</pre>
 * or mounted under a path of the application's own server with {@link #handler()}:
 * {@code server.createContext("/runnel", web.handler())}.
 *
 * <p>It binds to 127.0.0.1 unless told otherwise. Without an authenticator every request is an
 * operator named {@code local}; with {@link Builder#basicAuth} or {@link Builder#authenticator} each
 * request must name its user. On any other address than a loopback one, {@link #start()} refuses to
 * serve without either, unless {@link Builder#allowAnonymous()} says so.
 *
 * <p>It answers only requests whose {@code Host} is {@code localhost}, a loopback address, the
 * address the request came in on, the name it was bound by, or a name given to
 * {@link Builder#allowedHost}; other requests get 403 (a page elsewhere whose name was pointed at
 * this address, DNS rebinding, is refused). Every change is a POST whose {@code Origin} (or else
 * {@code Referer}) is a page of the same host and port or of an allowed host, carrying a CSRF
 * token, and is written to the audit log. Mounted with {@link #handler()}, the same checks hold:
 * allow the names the application's server is reached by.
 */
public final class RunnelWeb implements AutoCloseable {
    /** The port when none is given: {@value}. */
    public static final int DEFAULT_PORT = 8080;
    /** The address bound when none is given: the loopback address only. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(RunnelWeb.class);

    private final Dashboard dashboard;
    private final InetSocketAddress address;
    private final boolean authenticated;
    private final boolean allowAnonymous;
    private HttpServer server;
    private ExecutorService executor;

    private RunnelWeb(Dashboard dashboard, InetSocketAddress address, boolean authenticated, boolean allowAnonymous) {
        this.dashboard = dashboard;
        this.address = address;
        this.authenticated = authenticated;
        this.allowAnonymous = allowAnonymous;
    }

    /**
     * {@code host} as {@link Builder#allowedHost} keeps it: lower case, an IPv6 address without its
     * brackets. Throws {@link IllegalArgumentException} when it is not a host name or address (a
     * scheme, port or path with it), so that a command line can check its flags before it opens a
     * database.
     */
    public static String allowedHostName(String host) {
        return HostCheck.normalize(host);
    }

    /** A builder for a dashboard of {@code runnel}'s database. */
    public static Builder builder(Runnel runnel) {
        if (runnel == null) {
            throw new IllegalArgumentException("runnel must not be null");
        }
        return new Builder(runnel);
    }

    /**
     * The dashboard as a handler to mount in another {@link HttpServer} under any path: it finds
     * its prefix from the context it is mounted at, and its links follow. It checks each request's
     * Host and each change's Origin as on its own server: give the names the application is reached
     * by to {@link Builder#allowedHost}. Whether it needs users is the application's to decide: the
     * builder's address is not used, so nothing refuses an open dashboard on a public server.
     */
    public HttpHandler handler() {
        return dashboard;
    }

    /**
     * Starts its own server on the builder's address and port; returns this. Throws
     * {@link IllegalStateException} when the address is not a loopback one and there are neither
     * users nor an authenticator, unless {@link Builder#allowAnonymous()} was given (which logs a
     * warning instead).
     */
    public synchronized RunnelWeb start() {
        if (server != null) {
            throw new IllegalStateException("the dashboard is started already");
        }
        boolean open = !address.getAddress().isLoopbackAddress() && !authenticated;
        if (open && !allowAnonymous) {
            throw new IllegalStateException("a dashboard on " + hostText() + " without users would let anyone who"
                    + " reaches it see every job and change any: add basicAuth(...) or an authenticator, or"
                    + " allowAnonymous()");
        }
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", dashboard);
        server.start();
        dashboard.start();
        if (open) {
            LOG.warn("the dashboard on {} has no users: anyone who reaches it sees every job and may retry, cancel or"
                    + " delete any (allowAnonymous)", hostText());
        }
        return this;
    }

    /** The port it listens on (the one chosen, when the builder asked for port 0); -1 before start. */
    public synchronized int port() {
        return server == null ? -1 : server.getAddress().getPort();
    }

    /**
     * The address it listens on, as the builder gave it, with the port chosen once started. A wildcard
     * address ({@code 0.0.0.0}, {@code ::}) means every interface of the machine.
     */
    public synchronized InetSocketAddress address() {
        // The server's own address of a wildcard bind may be the other family's ([::] for 0.0.0.0).
        return server == null ? address : new InetSocketAddress(address.getAddress(), port());
    }

    /**
     * A URL it serves at, such as {@code http://127.0.0.1:8080/}: on a wildcard address, the
     * loopback one (see {@link #address()} for what is bound).
     */
    public synchronized String url() {
        String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/";
    }

    private String hostText() {
        String host = address.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + (server == null ? address.getPort() : port());
    }

    /** Stops its server (within a second for requests in flight) and its sampler. Idempotent. */
    @Override
    public synchronized void close() {
        dashboard.stop();
        if (server != null) {
            server.stop(1);
            executor.close();
            server = null;
        }
    }

    /** Settings of a {@link RunnelWeb}; each has a default. */
    public static final class Builder {
        private final Runnel runnel;
        private int port = DEFAULT_PORT;
        private String bind = DEFAULT_BIND;
        private Optional<Authenticator> authenticator = Optional.empty();
        private Duration searchBudget = Jobs.SEARCH_BUDGET;
        private boolean allowAnonymous;
        private final Map<String, BasicAuth.Account> accounts = new LinkedHashMap<>();
        private final Set<String> allowedHosts = new LinkedHashSet<>();

        private Builder(Runnel runnel) {
            this.runnel = runnel;
        }

        /** The port to listen on, 0 for any free one; default {@value #DEFAULT_PORT}. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** The address to bind, such as {@code 0.0.0.0} for every interface; default {@value #DEFAULT_BIND}. */
        public Builder bind(String address) {
            if (address == null || address.isBlank()) {
                throw new IllegalArgumentException("bind address must not be blank");
            }
            this.bind = address;
            return this;
        }

        /** Lets {@code user} in with {@code password} by HTTP basic auth, in {@code role}. */
        public Builder basicAuth(String user, String password, WebRole role) {
            accounts.put(user, new BasicAuth.Account(new WebUser(user, role), password));
            return this;
        }

        /**
         * Names (or addresses) the dashboard also answers to, such as {@code runnel.example.com}
         * behind a reverse proxy: requests naming any other Host are refused, and a change is taken
         * from a page of these names whatever its port or scheme. {@code localhost}, the loopback
         * addresses, the address a request comes in on and the name given to {@link #bind} are
         * allowed always. Repeatable; without a scheme, port or path.
         */
        public Builder allowedHost(String... hosts) {
            if (hosts == null) {
                throw new IllegalArgumentException("allowed hosts must not be null");
            }
            for (String host : hosts) {
                allowedHosts.add(allowedHostName(host));
            }
            return this;
        }

        /**
         * Lets {@link RunnelWeb#start()} serve on an address other machines reach with neither users
         * nor an authenticator: everyone who reaches it is then an operator. It logs a warning at
         * start. For a network that is trusted whole, or a proxy in front that authenticates.
         */
        public Builder allowAnonymous() {
            this.allowAnonymous = true;
            return this;
        }

        /** Decides who each request comes from; tried after the basic-auth accounts, if any. */
        public Builder authenticator(Authenticator authenticator) {
            if (authenticator == null) {
                throw new IllegalArgumentException("authenticator must not be null");
            }
            this.authenticator = Optional.of(authenticator);
            return this;
        }

        /**
         * How long a search of the jobs page reads when no index serves its filter (a kind or args
         * value) before it shows what it found, with a link to search on: {@link Jobs#SEARCH_BUDGET}
         * by default. Zero reads one window of ids a page.
         */
        public Builder searchBudget(Duration budget) {
            if (budget == null || budget.isNegative()) {
                throw new IllegalArgumentException("search budget must not be negative, was " + budget);
            }
            this.searchBudget = budget;
            return this;
        }

        /** The dashboard, not yet listening: {@link RunnelWeb#start()} it, or mount its {@link #handler()}. */
        public RunnelWeb build() {
            InetAddress host;
            try {
                host = InetAddress.getByName(bind);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("bind address " + bind + " is not an address: " + e.getMessage(), e);
            }
            Authenticator auth = BasicAuth.combine(accounts.values(), authenticator);
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Dashboard dashboard = new Dashboard(runnel, auth, Set.copyOf(allowedHosts), bind, secret, searchBudget);
            return new RunnelWeb(dashboard, new InetSocketAddress(host, port),
                    !accounts.isEmpty() || authenticator.isPresent(), allowAnonymous);
        }
    }
}
