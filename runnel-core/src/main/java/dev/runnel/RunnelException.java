package dev.runnel;

/** A failure of the job store or the runtime (a database error, a schema at the wrong version). */
public class RunnelException extends RuntimeException {
    public RunnelException(String message) {
        super(message);
    }

    public RunnelException(String message, Throwable cause) {
        super(message, cause);
    }
}
