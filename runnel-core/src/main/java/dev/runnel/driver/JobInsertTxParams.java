package dev.runnel.driver;

import java.sql.Connection;
import java.util.List;

/**
 * Insert {@code jobs} on the caller's {@code connection}, inside whatever transaction it holds: they
 * exist only if the caller commits. Internal SPI.
 */
public record JobInsertTxParams(Connection connection, List<JobInsertParams> jobs) {}
