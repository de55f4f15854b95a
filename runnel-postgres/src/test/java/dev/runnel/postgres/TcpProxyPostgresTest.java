package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.runnel.testkit.TcpProxy;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How pgjdbc reacts to the network faults of the testkit's {@link TcpProxy}, put between it and the
 * test database: the faults later tests rely on must reach pgjdbc as the failures they stand for.
 * The tests fail, they are not skipped, when the database cannot be reached.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TcpProxyPostgresTest {
    /** pgjdbc's socketTimeout and connectTimeout, in seconds: how long a black hole is waited on. */
    private static final int TIMEOUT_SECONDS = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(TIMEOUT_SECONDS);
    /** Well below the timeout: a reset must be reported without waiting for it. */
    private static final Duration PROMPT = Duration.ofMillis(1_000);
    /** The slack around a timeout: timers fire a little early, and late on a loaded machine. */
    private static final Duration EARLY = Duration.ofMillis(200);
    private static final Duration LATE = Duration.ofSeconds(2);

    private final PostgresUrl url = PostgresUrl.parse(PostgresTestSchema.URL);
    private TcpProxy proxy;

    @BeforeEach
    void startProxy() throws SQLException {
        // Straight to the database first: when it is down, say so rather than "connection reset".
        try (Connection direct = PostgresTestSchema.admin()) {
            assertThat(selectOne(direct)).isEqualTo(1);
        }
        proxy = TcpProxy.start(url.host(), url.port());
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void aDroppedConnectionFailsItsNextStatementAtOnceWithAConnectionError() throws SQLException {
        try (Connection c = connect()) {
            assertThat(selectOne(c)).isEqualTo(1);

            proxy.dropAll();

            long start = System.nanoTime();
            SQLException e = failure(() -> selectOne(c));
            assertThat(elapsed(start)).isLessThan(PROMPT);
            assertThat(e.getSQLState()).as(e.toString()).startsWith("08");
            assertThat(c.isClosed()).as("pgjdbc closes a connection whose socket failed").isTrue();
        }
        try (Connection again = connect()) {
            assertThat(selectOne(again)).isEqualTo(1);
        }
        assertThat(proxy.dropped()).isEqualTo(1);
    }

    @Test
    void aStalledConnectionFailsAfterTheSocketTimeoutInsteadOfHanging() throws SQLException {
        try (Connection c = connect()) {
            assertThat(selectOne(c)).isEqualTo(1);

            proxy.stall();

            long start = System.nanoTime();
            SQLException e = failure(() -> selectOne(c));
            assertThat(elapsed(start)).isBetween(TIMEOUT.minus(EARLY), TIMEOUT.plus(LATE));
            assertThat(e.getSQLState()).as(e.toString()).startsWith("08");

            // connectTimeout bounds only the TCP connect, which the proxy completes at once: the
            // socket timeout bounds the startup instead. With the default sslmode=prefer pgjdbc
            // asks for SSL, times out, and tries again without SSL: twice the socket timeout.
            start = System.nanoTime();
            SQLException connecting = failure(this::connect);
            assertThat(elapsed(start)).as("a new connection during the stall")
                    .isBetween(TIMEOUT.minus(EARLY), TIMEOUT.multipliedBy(2).plus(LATE));
            assertThat(connecting.getSQLState()).as(connecting.toString()).startsWith("08");
        }
        proxy.unstall();
        try (Connection again = connect()) {
            assertThat(selectOne(again)).isEqualTo(1);
        }
    }

    @Test
    void aRefusedConnectionFailsAtOnceWhileAnOpenOneKeepsWorking() throws SQLException {
        try (Connection open = connect()) {
            assertThat(selectOne(open)).isEqualTo(1);

            proxy.refuseNew(true);

            long start = System.nanoTime();
            SQLException e = failure(this::connect);
            assertThat(elapsed(start)).isLessThan(PROMPT);
            assertThat(e.getSQLState()).as(e.toString()).startsWith("08");
            assertThat(selectOne(open)).isEqualTo(1);

            proxy.refuseNew(false);
            try (Connection again = connect()) {
                assertThat(selectOne(again)).isEqualTo(1);
            }
        }
        assertThat(proxy.refused()).isEqualTo(1);
    }

    /** A plain pgjdbc connection to the test database through the proxy. */
    private Connection connect() throws SQLException {
        Properties props = url.connectionProperties("runnel-proxy-test", TIMEOUT_SECONDS);
        props.setProperty("socketTimeout", String.valueOf(TIMEOUT_SECONDS));
        String database = URLEncoder.encode(url.database(), StandardCharsets.UTF_8);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database, props);
    }

    /** The SQLException {@code call} throws; fails the test when it throws none. */
    private static SQLException failure(ThrowingCallable call) {
        SQLException e = catchThrowableOfType(SQLException.class, call);
        assertThat((Throwable) e).as("an SQLException").isNotNull();
        return e;
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Duration elapsed(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
