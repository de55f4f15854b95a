package dev.runnel.driver;

import java.time.Instant;

/**
 * Remove clients that expired before {@code expiredBefore} and whose jobs were rescued since:
 * stopped or dead for long. Internal SPI.
 */
public record ClientDeleteParams(Lease lease, Instant expiredBefore) {}
