package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.runnel.Migrator;
import dev.runnel.RunnelConnectException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;

/**
 * Connecting: a database that cannot be reached fails the first operation fast and clearly, and
 * every connection the driver opens is bounded by a socket timeout and has TCP keepalive, except
 * while it migrates.
 */
class PostgresConnectTest {
    /** Far below the 10 s the pool would wait, and the driver's default connect timeout. */
    private static final Duration FAST = Duration.ofSeconds(5);
    private static final PostgresUrl TEST = PostgresUrl.parse(PostgresTestSchema.URL);

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    /** The test database's server, as {@code postgres://user:hunter2@host:port/database?query}. */
    private static String url(String user, String database, String query) {
        return "postgres://" + user + ":hunter2@" + TEST.host() + ":" + TEST.port() + "/" + database + query;
    }

    @Test
    void anUnreachableDatabaseFailsTheFirstOperationFastNamingWhereAndWhy() {
        String server = TEST.host() + ":" + TEST.port();
        assertConnectFails("postgres://runnel:hunter2@127.0.0.1:1/test",
                "cannot connect to Postgres at 127.0.0.1:1/test: Connection refused");
        assertConnectFails(url(TEST.user(), "runnel_no_such_db", ""),
                "cannot connect to Postgres at " + server + "/runnel_no_such_db: database \"runnel_no_such_db\" does not exist");
        // With password authentication, the server does not say whether the role exists.
        assertConnectFails(url("runnel_ghost", TEST.database(), ""), "cannot connect to Postgres at " + server + "/"
                + TEST.database() + ": ", "role \"runnel_ghost\" does not exist", "for user \"runnel_ghost\"");
        assertConnectFails(url(TEST.user(), TEST.database(), "?sslmode=bogus"),
                "cannot connect to Postgres at " + server + "/" + TEST.database() + ": Invalid sslmode value: bogus");
    }

    /** Asserts that the first operation fails fast with {@code message}, and any one of {@code reasons}. */
    private static void assertConnectFails(String url, String message, String... reasons) {
        long start = System.nanoTime();
        // The default connect timeout, 10 s: the diagnosis must not wait for it.
        try (PostgresDriver d = PostgresDriver.fromUrl(url)) {
            assertThatThrownBy(d::migrationApplied).isInstanceOf(RunnelConnectException.class)
                    .hasMessageStartingWith(message)
                    .satisfies(e -> {
                        if (reasons.length > 0) {
                            assertThat(e.getMessage()).containsAnyOf(reasons);
                        } else {
                            assertThat(e.getMessage()).isEqualTo(message);
                        }
                    })
                    .hasMessageNotContaining("hunter2")
                    .hasMessageNotContaining("HikariPool").hasMessageNotContaining("runnel-postgres")
                    .satisfies(e -> assertThat(e.getCause().toString()).doesNotContain("hunter2"));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as(url).isLessThan(FAST);
    }

    @Test
    void theReasonIsTheNetworksOrPgjdbcsNotTheWrappersAroundIt() {
        SQLException refused = new SQLException("Connection to h:1 refused. Check that the hostname and port...",
                "08001", new ConnectException("Connection refused"));
        assertThat(PostgresConnections.connectReason(new SQLTransientConnectionException(
                "runnel-postgres - Connection is not available, request timed out after 10000ms (total=0)", refused)))
                .isEqualTo("Connection refused");
        assertThat(PostgresConnections.connectReason(new SQLException("The connection attempt failed.", "08001",
                new UnknownHostException("db.invalid")))).isEqualTo("unknown host db.invalid");
        assertThat(PostgresConnections.connectReason(new SQLException("socketTimeout parameter value must be an"
                + " integer but was: abc", "08001", new NumberFormatException("For input string: \"abc\""))))
                .isEqualTo("socketTimeout parameter value must be an integer but was: abc");
        assertThat(PostgresConnections.connectReason(new SQLTransientConnectionException("pool exhausted\n  (total=10)")))
                .isEqualTo("pool exhausted (total=10)");
    }

    @Test
    void firstOperationsStartingTogetherAllFailFastWithTheReason() throws Exception {
        try (PostgresDriver d = PostgresDriver.fromUrl(url(TEST.user(), "runnel_no_such_db", ""));
                ExecutorService executor = Executors.newFixedThreadPool(8)) {
            long start = System.nanoTime();
            List<Future<Throwable>> failures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                failures.add(executor.submit(() -> {
                    try {
                        d.migrationApplied();
                        return null;
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            for (Future<Throwable> failure : failures) {
                assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(RunnelConnectException.class)
                        .hasMessageContaining("database \"runnel_no_such_db\" does not exist");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(FAST);
        }
    }

    @Test
    void nothingConnectsUntilTheFirstOperationAndAFailedOneIsTriedAgain() throws Exception {
        String database = "runnel_late_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        String applicationName = "runnel-connect-" + database;
        try (PostgresDriver d = PostgresDriver.fromUrl(url(TEST.user(), database, "?ApplicationName=" + applicationName))) {
            assertThatThrownBy(d::migrationApplied).isInstanceOf(RunnelConnectException.class)
                    .hasMessageContaining("database \"" + database + "\" does not exist");
            try (Connection admin = PostgresTestSchema.admin(); Statement st = admin.createStatement()) {
                st.execute("CREATE DATABASE " + database);
            }
            try {
                // The pool starts with the first operation that gets through, not when it is built.
                Thread.sleep(500);
                assertThat(backends(applicationName)).isZero();
                assertThat(d.migrationApplied()).isEmpty();
                assertThat(backends(applicationName)).isPositive();
            } finally {
                d.close();
                try (Connection admin = PostgresTestSchema.admin(); Statement st = admin.createStatement()) {
                    st.execute("DROP DATABASE " + database + " WITH (FORCE)");
                }
            }
        }
    }

    private static int backends(String applicationName) throws SQLException {
        try (Connection c = PostgresTestSchema.admin();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
            ps.setString(1, applicationName);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void socketTimeoutAndKeepaliveComeFromTheBuilderThenTheUrlThenTheDefaults() throws Exception {
        String schema = db.create();
        String base = PostgresTestSchema.URL + (PostgresTestSchema.URL.contains("?") ? "&" : "?") + "schema=" + schema;
        try (PostgresDriver d = PostgresDriver.fromUrl(base)) {
            assertConnectionSettings(d, 30_000, true);
        }
        String fromUrl = base + "&socketTimeout=5&tcpKeepAlive=false";
        try (PostgresDriver d = PostgresDriver.fromUrl(fromUrl)) {
            assertConnectionSettings(d, 5_000, false);
        }
        try (PostgresDriver d = PostgresDriver.builder().url(fromUrl).socketTimeout(Duration.ofMillis(1_500))
                .tcpKeepAlive(true).build()) {
            // pgjdbc counts in whole seconds: rounded up.
            assertConnectionSettings(d, 2_000, true);
        }
        try (PostgresDriver d = PostgresDriver.builder().url(base).socketTimeout(Duration.ZERO).build()) {
            assertConnectionSettings(d, 0, true);
        }
    }

    /** Asserts the settings of the pool's connections and of the listener's. */
    private static void assertConnectionSettings(PostgresDriver d, int networkTimeoutMillis, boolean keepAlive)
            throws Exception {
        // The pool knows no credentials: they stay with the driver's own DataSource under it.
        HikariDataSource pool = (HikariDataSource) d.dataSource();
        assertThat(pool.getUsername()).isNull();
        assertThat(pool.getPassword()).isNull();
        assertThat(pool.getDataSourceProperties()).isEmpty();
        d.migrationApplied();
        try (Connection pooled = d.dataSource().getConnection(); Connection listener = d.openListenerConnection()) {
            for (Connection c : List.of(pooled, listener)) {
                assertThat(c.getNetworkTimeout()).isEqualTo(networkTimeoutMillis);
                assertThat(keepAlive(c)).isEqualTo(keepAlive);
            }
        }
    }

    /**
     * Whether the socket under {@code c} has SO_KEEPALIVE. pgjdbc offers no way to ask, so this
     * reads its stream: internal, and may need following when pgjdbc changes.
     */
    private static boolean keepAlive(Connection c) throws Exception {
        Object executor = c.unwrap(BaseConnection.class).getQueryExecutor();
        Field stream = QueryExecutorBase.class.getDeclaredField("pgStream");
        stream.setAccessible(true);
        return ((PGStream) stream.get(executor)).getSocket().getKeepAlive();
    }

    @Test
    void aMigrationOutlastsTheSocketTimeoutOfTheDriversPool() throws Exception {
        String schema = db.create();
        try (PostgresDriver d = PostgresDriver.builder().url(PostgresTestSchema.URL).schema(schema).maxPoolSize(1)
                .socketTimeout(Duration.ofSeconds(1)).build()) {
            assertThat(migrateWhileLocked(d, schema, null)).isEqualTo(PostgresDriverTest.allVersions(new Migrator(d)));
            try (Connection c = d.dataSource().getConnection()) {
                assertThat(c.getNetworkTimeout()).isEqualTo(1_000);
            }
        }
    }

    @Test
    void onAnApplicationsConnectionTheTimeoutIsLiftedWhileMigratingAndThenRestored() throws Exception {
        String schema = db.create();
        Properties props = TEST.connectionProperties("runnel-app", 5);
        props.setProperty("socketTimeout", "1");
        try (Connection physical = DriverManager.getConnection(TEST.jdbcUrl(), props);
                PostgresDriver d = PostgresDriver.builder().dataSource(singleConnection(physical)).schema(schema).build()) {
            assertThat(physical.getNetworkTimeout()).isEqualTo(1_000);
            assertThat(migrateWhileLocked(d, schema, () -> physical.getNetworkTimeout()))
                    .isEqualTo(PostgresDriverTest.allVersions(new Migrator(d)));
            assertThat(physical.getNetworkTimeout()).isEqualTo(1_000);
        }
    }

    /**
     * Migrates {@code d} while another session holds the schema's migration lock for longer than
     * the 1 s socket timeout, so that the migration's transaction waits that long for its first
     * statement's answer. {@code whileWaiting}, if given, must return 0: the timeout is lifted.
     */
    private static List<Integer> migrateWhileLocked(PostgresDriver d, String schema, Callable<Integer> whileWaiting)
            throws Exception {
        try (Connection holder = PostgresTestSchema.admin(); ExecutorService executor = Executors.newSingleThreadExecutor()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, PostgresSchema.of("schema", schema).migrationLockKey());
                lock.execute();
            }
            Future<List<Integer>> up = executor.submit(() -> new Migrator(d).up());
            Thread.sleep(2_500);
            assertThat(up).as("waits for the lock").isNotDone();
            if (whileWaiting != null) {
                assertThat(whileWaiting.call()).isZero();
            }
            holder.commit();
            return up.get(30, TimeUnit.SECONDS);
        }
    }

    /** An application's pool of one connection, which stays open when given back. */
    private static DataSource singleConnection(Connection physical) {
        Connection lent = (Connection) Proxy.newProxyInstance(PostgresConnectTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(physical, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return (DataSource) Proxy.newProxyInstance(PostgresConnectTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        return lent;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
