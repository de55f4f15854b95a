package dev.runnel.driver;

/**
 * Delete jobs {@code ids}, those not running, at {@code now} (the time of what a linked job's
 * deletion settles). Internal SPI.
 */
public record JobDeleteManyParams(long[] ids, java.time.Instant now) {
    /** Jobs to delete now. */
    public JobDeleteManyParams(long[] ids) {
        this(ids, java.time.Instant.now());
    }
}
