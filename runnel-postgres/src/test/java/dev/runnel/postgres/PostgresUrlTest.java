package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PostgresUrlTest {

    @Test
    void parsesEveryPart() {
        PostgresUrl url = PostgresUrl.parse("postgres://alice:s3cr%40t@db.example.com:6543/app%20db?schema=Jobs&sslmode=require");
        assertThat(url.user()).isEqualTo("alice");
        assertThat(url.password()).isEqualTo("s3cr@t");
        assertThat(url.host()).isEqualTo("db.example.com");
        assertThat(url.port()).isEqualTo(6543);
        assertThat(url.database()).isEqualTo("app db");
        assertThat(url.schema()).map(PostgresSchema::name).contains("jobs");
        assertThat(url.properties()).isEqualTo(Map.of("sslmode", "require"));
        assertThat(url.description()).isEqualTo("db.example.com:6543/app db");
    }

    @Test
    void acceptsBothSchemesAndAppliesLibpqDefaults() {
        PostgresUrl url = PostgresUrl.parse("postgresql://bob@db");
        assertThat(url.port()).isEqualTo(PostgresUrl.DEFAULT_PORT);
        assertThat(url.database()).isEqualTo("bob");
        assertThat(url.password()).isNull();
        assertThat(url.schema()).isEmpty();

        PostgresUrl bare = PostgresUrl.parse("postgres:///app");
        assertThat(bare.host()).isEqualTo("localhost");
        assertThat(bare.user()).isEqualTo(System.getProperty("user.name"));
        assertThat(bare.database()).isEqualTo("app");
    }

    @Test
    void ipv6HostsAndPlusSignsAndUnencodedAtInPassword() {
        PostgresUrl v6 = PostgresUrl.parse("postgres://u@[::1]:5433/d");
        assertThat(v6.host()).isEqualTo("[::1]");
        assertThat(v6.port()).isEqualTo(5433);
        assertThat(v6.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5433/d");

        PostgresUrl at = PostgresUrl.parse("postgres://u:p@ss+word@h/d");
        assertThat(at.password()).isEqualTo("p@ss+word");
        assertThat(at.host()).isEqualTo("h");
    }

    @Test
    void userAndPasswordMayComeAsQueryParameters() {
        PostgresUrl url = PostgresUrl.parse("postgres://h/d?user=carol&password=topsecret&connectTimeout=3");
        assertThat(url.user()).isEqualTo("carol");
        assertThat(url.password()).isEqualTo("topsecret");
        assertThat(url.properties()).isEqualTo(Map.of("connectTimeout", "3"));
        assertThat(url.toString()).doesNotContain("topsecret");
    }

    @Test
    void passwordIsInNoStringButTheConnectionProperties() {
        PostgresUrl url = PostgresUrl.parse("postgres://alice:hunter2@h:5432/d?sslmode=verify-full&sslpassword=keypass");
        assertThat(url.toString()).doesNotContain("hunter2").doesNotContain("keypass")
                .isEqualTo("postgres://alice:***@h:5432/d?sslmode=verify-full&sslpassword=***");
        assertThat(url.description()).doesNotContain("hunter2");
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5432/d").doesNotContain("alice");
        Properties props = url.connectionProperties("runnel", 7);
        assertThat(props.getProperty("password")).isEqualTo("hunter2");
        assertThat(props.getProperty("user")).isEqualTo("alice");
        assertThat(props.getProperty("ApplicationName")).isEqualTo("runnel");
        assertThat(props.getProperty("connectTimeout")).isEqualTo("7");
        assertThat(props.getProperty("sslmode")).isEqualTo("verify-full");
    }

    @Test
    void urlParametersOverrideTheDriversDefaults() {
        Properties props = PostgresUrl.parse("postgres://u@h/d?ApplicationName=billing&connectTimeout=2")
                .connectionProperties("runnel", 10);
        assertThat(props.getProperty("ApplicationName")).isEqualTo("billing");
        assertThat(props.getProperty("connectTimeout")).isEqualTo("2");
    }

    @Test
    void connectionsGetASocketTimeoutAndKeepaliveUnlessTheUrlSaysOtherwise() {
        Properties defaults = PostgresUrl.parse("postgres://u@h/d").connectionProperties("runnel", 7);
        assertThat(defaults.getProperty("socketTimeout")).isEqualTo("30")
                .isEqualTo(String.valueOf(PostgresDriver.DEFAULT_SOCKET_TIMEOUT.toSeconds()));
        assertThat(defaults.getProperty("tcpKeepAlive")).isEqualTo("true");
        // The whole login, TLS and authentication included, is bounded, not only the TCP connect.
        assertThat(defaults.getProperty("loginTimeout")).isEqualTo("7");

        Properties fromUrl = PostgresUrl.parse("postgres://u@h/d?socketTimeout=5&tcpKeepAlive=false&loginTimeout=3")
                .connectionProperties("runnel", 7);
        assertThat(fromUrl.getProperty("socketTimeout")).isEqualTo("5");
        assertThat(fromUrl.getProperty("tcpKeepAlive")).isEqualTo("false");
        assertThat(fromUrl.getProperty("loginTimeout")).isEqualTo("3");
    }

    @Test
    void malformedUrlsAreRejectedWithoutThePassword() {
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hunter2@h:99999/d"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port").hasMessageContaining("u:***@h").hasMessageNotContaining("hunter2");
        // An unencoded / cuts the authority short, so the password's tail reads as host and port.
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hun/ter2@h/d"))
                .hasMessageContaining("percent-encoded").hasMessageNotContaining("hun").hasMessageNotContaining("ter2");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hunter2%zz@h/d"))
                .hasMessageContaining("%-escape").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PostgresUrl.parse("mysql://u:hunter2@h/d"))
                .hasMessageContaining("postgres://").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hunter2@h1,h2/d"))
                .hasMessageContaining("several hosts").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hunter2@[::1/d"))
                .hasMessageContaining("IPv6").hasMessageNotContaining("hunter2");
    }

    @Test
    void badSchemaParameterIsRejectedNamingTheOption() {
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u:hunter2@h/d?schema=no-dashes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema").hasMessageContaining("no-dashes").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u@h/d?schema=" + "s".repeat(64)))
                .hasMessageContaining("schema");
    }

    @Test
    void pgbouncerTransactionTurnsOffNamedStatementsAndStartupSets() {
        PostgresUrl url = PostgresUrl.parse("postgres://u@h:6432/d?pgbouncer=transaction&sslmode=require");
        assertThat(url.transactionPooling()).isTrue();
        assertThat(url.properties()).isEqualTo(Map.of("sslmode", "require"));
        Properties props = url.connectionProperties("runnel", 7);
        assertThat(props.getProperty("prepareThreshold")).isEqualTo("0");
        assertThat(props.getProperty("assumeMinServerVersion")).isEqualTo("9.0");
        assertThat(url.toString()).isEqualTo("postgres://u@h:6432/d?pgbouncer=transaction&sslmode=require");

        // A pgbouncer keeping prepared statements itself (1.21+) may have them back.
        assertThat(PostgresUrl.parse("postgres://u@h/d?pgbouncer=transaction&prepareThreshold=5")
                .connectionProperties("runnel", 7).getProperty("prepareThreshold")).isEqualTo("5");
        // Without the parameter nothing changes.
        Properties direct = PostgresUrl.parse("postgres://u@h/d").connectionProperties("runnel", 7);
        assertThat(direct.getProperty("prepareThreshold")).isNull();
        assertThat(direct.getProperty("assumeMinServerVersion")).isNull();
    }

    @Test
    void pgbouncerTakesOnlyTransaction() {
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u@h/d?pgbouncer=true"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pgbouncer=true").hasMessageContaining("'transaction'");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u@h/d?pgbouncer=session"))
                .hasMessageContaining("pgbouncer=session");
    }

    @Test
    void listenUrlIsAPercentEncodedUrlOfItsOwnAndItsPasswordIsMasked() {
        PostgresUrl url = PostgresUrl.parse("postgres://u:outer@h:6432/d?pgbouncer=transaction"
                + "&listen_url=postgres%3A%2F%2Fl%3Ainner%40db%3A5432%2Fd%3Fsslmode%3Drequire");
        PostgresUrl listen = url.listenUrl().orElseThrow();
        assertThat(listen.user()).isEqualTo("l");
        assertThat(listen.password()).isEqualTo("inner");
        assertThat(listen.description()).isEqualTo("db:5432/d");
        assertThat(listen.properties()).isEqualTo(Map.of("sslmode", "require"));
        assertThat(url.properties()).isEmpty();
        assertThat(url.toString()).doesNotContain("outer").doesNotContain("inner").contains("listen_url=");
        assertThat(PostgresUrl.parse(url.toString()).listenUrl().orElseThrow().description()).isEqualTo("db:5432/d");

        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u@h/d?listen_url=mysql%3A%2F%2Fu%3Asecret%40x"))
                .hasMessageContaining("listen_url").hasMessageContaining("postgres://").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> PostgresUrl.parse("postgres://u@h/d?listen_url=postgres%3A%2F%2Fx%2Fd%3Fpgbouncer%3Dtransaction"))
                .hasMessageContaining("direct connection");
    }
}
