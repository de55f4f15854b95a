package dev.runnel.driver;

import dev.runnel.RunnelException;

/**
 * The database refused a statement because of the data it carried (on Postgres SQLSTATE classes
 * 22, data exception, and 23, integrity constraint violation; on SQLite a constraint or type
 * error), so nothing of it was applied. Unlike a lost connection, repeating the same statement
 * fails the same way: the runtime splits a batch that fails like this until it finds the row at
 * fault. Internal SPI.
 */
public class DataRejectedException extends RunnelException {
    public DataRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
