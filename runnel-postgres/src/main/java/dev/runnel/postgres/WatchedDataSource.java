package dev.runnel.postgres;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Where the pool that a driver built from a URL gets its connections: pgjdbc's, each watched for
 * the pool's liveness check. A check that fails reports the loss ({@link ConnectionLoss}), which
 * retires the pool's other connections before the pool checks each of them in turn. And when the
 * check finds the server gone, pgjdbc has closed the connection, so the pool's restoring of its
 * network timeout afterwards throws, and the pool would log that as a warning naming the
 * connection; on a closed connection that call is skipped. Every other call goes to pgjdbc's
 * connection as it is.
 */
final class WatchedDataSource implements DataSource {
    private final String jdbcUrl;
    private final Properties properties;
    private final ConnectionLoss loss;

    /** @param properties pgjdbc's connection properties, user and password among them */
    WatchedDataSource(String jdbcUrl, Properties properties, ConnectionLoss loss) {
        this.jdbcUrl = jdbcUrl;
        this.properties = properties;
        this.loss = loss;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl, properties);
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Watch(connection));
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the user and password are this DataSource's own");
    }

    private final class Watch implements InvocationHandler {
        private final Connection connection;

        Watch(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "setNetworkTimeout" -> {
                    if (connection.isClosed()) {
                        return null;
                    }
                }
                case "isValid" -> {
                    boolean valid = connection.isValid((Integer) args[0]);
                    if (!valid) {
                        loss.lost("a pooled connection failed its check");
                    }
                    return valid;
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "toString" -> {
                    return connection.toString();
                }
                default -> {
                    // every other call as it is, below
                }
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // pgjdbc logs through java.util.logging
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // the connection properties carry loginTimeout and connectTimeout
    }

    /**
     * As for connections the pool opens from a JDBC URL: {@link DriverManager}'s, which is also
     * how long the pool waits for its connection openers when it shuts down.
     */
    @Override
    public int getLoginTimeout() {
        return DriverManager.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return false;
    }
}
