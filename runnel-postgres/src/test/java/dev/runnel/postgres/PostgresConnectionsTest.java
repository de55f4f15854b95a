package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.RunnelException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which failures retire the whole pool: those that say the connection is gone, not the statement. */
class PostgresConnectionsTest {
    @Test
    void aLostConnectionIsToldFromAFailedStatement() {
        assertThat(PostgresConnections.connectionLost(new SQLException("terminated", "57P01"))).isTrue();
        assertThat(PostgresConnections.connectionLost(new SQLException("I/O error", "08006"))).isTrue();
        assertThat(PostgresConnections.connectionLost(new SQLException("closed", "08003"))).isTrue();
        assertThat(PostgresConnections.connectionLost(new SQLException("idle too long", "57P05"))).isTrue();
        assertThat(PostgresConnections.connectionLost(
                new SQLException("wrapped", null, new RunnelException("pool", new SQLException("gone", "08001"))))).isTrue();

        assertThat(PostgresConnections.connectionLost(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(PostgresConnections.connectionLost(new SQLException("cancelled", "57014"))).isFalse();
        assertThat(PostgresConnections.connectionLost(new SQLException("no state"))).isFalse();
    }
}
