package dev.runnel.postgres;

import dev.runnel.Drivers;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * A parsed {@code postgres://} or {@code postgresql://} URL:
 * {@code postgres://user:password@host:port/database?schema=jobs&sslmode=require}. The user,
 * password and database are percent-decoded; the port defaults to 5432, the host to
 * {@code localhost}, the user to the operating-system user and the database to the user, as libpq
 * does. {@code schema}, {@code pgbouncer} and {@code listen_url} are Runnel's; every other query
 * parameter is passed to pgjdbc as a connection property ({@code sslmode}, {@code sslrootcert},
 * {@code ApplicationName}, {@code socketTimeout}, {@code tcpKeepAlive}...), overriding Runnel's
 * default for it.
 *
 * <p>{@code pgbouncer=transaction} says the URL leads to a pooler in transaction mode (PgBouncer's
 * {@code pool_mode=transaction}), where each transaction may run on a different server
 * connection: see {@link #connectionProperties} for what changes. {@code listen_url} is a second,
 * percent-encoded {@code postgres://} URL for the listener's connection, which must reach the
 * server directly (or through a pooler in session mode): LISTEN through a transaction pooler
 * subscribes a server connection the listener does not keep.
 *
 * <p>The password is kept out of {@link #toString()}, {@link #description()} and every exception
 * message, including those about a URL that fails to parse.
 */
final class PostgresUrl {
    static final int DEFAULT_PORT = 5432;
    private static final String MASK = "***";

    private final String user;
    private final String password;
    private final String host;
    private final int port;
    private final String database;
    private final Optional<PostgresSchema> schema;
    private final boolean transactionPooling;
    private final Optional<PostgresUrl> listenUrl;
    private final Map<String, String> properties;

    private PostgresUrl(String user, String password, String host, int port, String database,
            Optional<PostgresSchema> schema, boolean transactionPooling, Optional<PostgresUrl> listenUrl,
            Map<String, String> properties) {
        this.user = user;
        this.password = password;
        this.host = host;
        this.port = port;
        this.database = database;
        this.schema = schema;
        this.transactionPooling = transactionPooling;
        this.listenUrl = listenUrl;
        this.properties = properties;
    }

    /** Parses {@code url}; throws {@link IllegalArgumentException}, with the password masked, when it is malformed. */
    static PostgresUrl parse(String url) {
        if (url == null) {
            throw new IllegalArgumentException("database URL must not be null");
        }
        int schemeEnd = url.indexOf("://");
        String scheme = schemeEnd < 0 ? "" : url.substring(0, schemeEnd);
        if (!scheme.equals("postgres") && !scheme.equals("postgresql")) {
            throw invalid(url, "must start with postgres:// or postgresql://");
        }
        String rest = url.substring(schemeEnd + 3);
        int fragment = rest.indexOf('#');
        if (fragment >= 0) {
            rest = rest.substring(0, fragment);
        }
        int queryStart = rest.indexOf('?');
        String query = queryStart < 0 ? "" : rest.substring(queryStart + 1);
        String main = queryStart < 0 ? rest : rest.substring(0, queryStart);
        int pathStart = main.indexOf('/');
        String authority = pathStart < 0 ? main : main.substring(0, pathStart);
        String path = pathStart < 0 ? "" : main.substring(pathStart + 1);

        // The last @ ends the user info, so that an unencoded @ in a password still parses.
        int at = authority.lastIndexOf('@');
        String user = null;
        String password = null;
        if (at >= 0) {
            String userInfo = authority.substring(0, at);
            int colon = userInfo.indexOf(':');
            user = decode(url, "user", colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(url, "password", userInfo.substring(colon + 1));
        }
        String hostPort = authority.substring(at + 1);
        if (hostPort.contains(",")) {
            throw invalid(url, "names several hosts, which Runnel does not support");
        }
        String host;
        String portText;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw invalid(url, "has an IPv6 host without its closing ]");
            }
            host = hostPort.substring(0, close + 1);
            String after = hostPort.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw invalid(url, "has text after its IPv6 host");
            }
            portText = after.isEmpty() ? "" : after.substring(1);
        } else {
            int colon = hostPort.lastIndexOf(':');
            host = decode(url, "host", colon < 0 ? hostPort : hostPort.substring(0, colon));
            portText = colon < 0 ? "" : hostPort.substring(colon + 1);
        }
        int port = parsePort(url, portText);
        String database = decode(url, "database", path);

        Optional<PostgresSchema> schema = Optional.empty();
        boolean transactionPooling = false;
        Optional<PostgresUrl> listenUrl = Optional.empty();
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(url, "query parameter name", eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(url, "query parameter " + key, pair.substring(eq + 1));
            switch (key) {
                case "schema" -> schema = Optional.of(PostgresSchema.of("schema (a query parameter of the database URL)", value));
                case "pgbouncer" -> transactionPooling = parsePooling(url, value);
                case "listen_url" -> listenUrl = Optional.of(parseListenUrl(url, value));
                case "user" -> user = value;
                case "password" -> password = value;
                default -> properties.put(key, value);
            }
        }
        if (user == null || user.isEmpty()) {
            user = System.getProperty("user.name", "postgres");
        }
        return new PostgresUrl(user, password, host.isEmpty() ? "localhost" : host, port,
                database.isEmpty() ? user : database, schema, transactionPooling, listenUrl,
                Collections.unmodifiableMap(properties));
    }

    private static boolean parsePooling(String url, String value) {
        // Session mode keeps one server connection per client, as a direct connection does: it
        // needs nothing, and a value that asks for nothing is more likely a typo than a wish.
        if (!value.equals("transaction")) {
            throw invalid(url, "has pgbouncer=" + value + "; the only value is 'transaction', for a pooler in"
                    + " transaction mode (leave it out for a direct connection or session mode)");
        }
        return true;
    }

    private static PostgresUrl parseListenUrl(String url, String value) {
        PostgresUrl listen;
        try {
            listen = parse(value);
        } catch (IllegalArgumentException e) {
            throw invalid(url, "has a listen_url that does not parse (it must be percent-encoded): " + e.getMessage());
        }
        if (listen.transactionPooling || listen.listenUrl.isPresent()) {
            throw invalid(url, "has a listen_url with pgbouncer or listen_url of its own; it is the listener's"
                    + " direct connection");
        }
        return listen;
    }

    private static int parsePort(String url, String text) {
        if (text.isEmpty()) {
            return DEFAULT_PORT;
        }
        int port = -1;
        if (text.length() <= 5 && text.chars().allMatch(Character::isDigit)) {
            port = Integer.parseInt(text);
        }
        if (port < 1 || port > 65535) {
            // The text is not echoed: with an unencoded / in a password, it may be part of it.
            throw invalid(url, "has a port that is not a number between 1 and 65535"
                    + " (a password containing / ? # or @ must be percent-encoded)");
        }
        return port;
    }

    /** Percent-decodes one part of the URL; unlike URLDecoder, keeps + as it is. */
    private static String decode(String url, String part, String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        int i = 0;
        while (i < text.length()) {
            int escape = text.indexOf('%', i);
            if (escape < 0) {
                escape = text.length();
            }
            // Plain runs are encoded whole, so that surrogate pairs stay together.
            bytes.writeBytes(text.substring(i, escape).getBytes(StandardCharsets.UTF_8));
            if (escape == text.length()) {
                break;
            }
            int hi = escape + 2 < text.length() ? Character.digit(text.charAt(escape + 1), 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(text.charAt(escape + 2), 16);
            if (lo < 0) {
                throw invalid(url, "has a malformed %-escape in its " + part);
            }
            bytes.write(hi * 16 + lo);
            i = escape + 3;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException invalid(String url, String problem) {
        return new IllegalArgumentException("database URL '" + Drivers.redact(url) + "' " + problem);
    }

    String user() {
        return user;
    }

    /** The password, or null when the URL has none. Never logged. */
    String password() {
        return password;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    String database() {
        return database;
    }

    /** The schema named by the {@code schema} query parameter, if any. */
    Optional<PostgresSchema> schema() {
        return schema;
    }

    /** Whether the URL says {@code pgbouncer=transaction}. */
    boolean transactionPooling() {
        return transactionPooling;
    }

    /** The listener's own URL, from the {@code listen_url} parameter, if any. */
    Optional<PostgresUrl> listenUrl() {
        return listenUrl;
    }

    /** The query parameters passed on to pgjdbc. */
    Map<String, String> properties() {
        return properties;
    }

    /** The pgjdbc URL, with neither user nor password: those go in the connection properties. */
    String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8);
    }

    /**
     * The properties for a pgjdbc connection: Runnel's defaults, then the URL's parameters, which
     * override them, then the user and password. The defaults are the given application name, the
     * connect timeout in whole seconds for both the TCP connect ({@code connectTimeout}) and the
     * whole login, TLS and authentication included ({@code loginTimeout}), a socket timeout of
     * {@link PostgresDriver#DEFAULT_SOCKET_TIMEOUT} ({@code socketTimeout}) and TCP keepalive
     * ({@code tcpKeepAlive}).
     *
     * <p>With {@code transactionPooling}, two more defaults keep a connection free of session state
     * that a transaction pooler would hand to other clients or lose: {@code prepareThreshold=0}, so
     * that pgjdbc never names a server-side prepared statement (a later execution would look for it
     * on another server connection: 'prepared statement "S_1" does not exist'), and
     * {@code assumeMinServerVersion=9.0}, so that it sends {@code application_name} and
     * {@code extra_float_digits} in the startup packet instead of running {@code SET} for each after
     * login, which would change whichever server connection the pooler lent for it. A URL parameter
     * still overrides either (a PgBouncer of 1.21 or later with {@code max_prepared_statements} set
     * keeps named statements itself).
     */
    Properties connectionProperties(String applicationName, long connectTimeoutSeconds, boolean transactionPooling) {
        Properties props = new Properties();
        if (transactionPooling) {
            props.setProperty("prepareThreshold", "0");
            props.setProperty("assumeMinServerVersion", "9.0");
        }
        props.setProperty("ApplicationName", applicationName);
        props.setProperty("connectTimeout", String.valueOf(connectTimeoutSeconds));
        props.setProperty("loginTimeout", String.valueOf(connectTimeoutSeconds));
        props.setProperty("socketTimeout", String.valueOf(PostgresDriver.DEFAULT_SOCKET_TIMEOUT.toSeconds()));
        props.setProperty("tcpKeepAlive", String.valueOf(PostgresDriver.DEFAULT_TCP_KEEP_ALIVE));
        props.putAll(properties);
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        return props;
    }

    /** {@link #connectionProperties(String, long, boolean)} as this URL's {@code pgbouncer} parameter says. */
    Properties connectionProperties(String applicationName, long connectTimeoutSeconds) {
        return connectionProperties(applicationName, connectTimeoutSeconds, transactionPooling);
    }

    /** {@code host:port/database}: where this URL points, for messages and logs. */
    String description() {
        return host + ":" + port + "/" + database;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("postgres://").append(user);
        if (password != null) {
            s.append(':').append(MASK);
        }
        s.append('@').append(description());
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        schema.ifPresent(value -> query.add("schema=" + value));
        if (transactionPooling) {
            query.add("pgbouncer=transaction");
        }
        listenUrl.ifPresent(value -> query.add("listen_url=" + URLEncoder.encode(value.toString(), StandardCharsets.UTF_8)));
        properties.forEach((k, v) -> query.add(k + "=" + (k.toLowerCase(Locale.ROOT).contains("password") ? MASK : v)));
        return s.append(query).toString();
    }
}
