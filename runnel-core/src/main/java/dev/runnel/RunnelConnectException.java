package dev.runnel;

/**
 * The database could not be reached (refused, unknown host, missing database or role, a TLS or
 * authentication failure, a timeout while connecting), so the operation was not applied. Its
 * message names where the database is and the server's or the network's reason, never a password.
 */
public class RunnelConnectException extends RunnelException {
    public RunnelConnectException(String message, Throwable cause) {
        super(message, cause);
    }
}
