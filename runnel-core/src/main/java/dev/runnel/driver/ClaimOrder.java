package dev.runnel.driver;

import dev.runnel.JobRow;
import java.util.Comparator;

/**
 * The order claimed jobs are worked in: priority, then scheduled time, then id. Drivers sort a
 * claim's rows by it, since {@code RETURNING} promises no order. Internal SPI.
 */
public final class ClaimOrder {
    public static final Comparator<JobRow> COMPARATOR = Comparator.comparingInt(JobRow::priority)
            .thenComparing(JobRow::scheduledAt).thenComparingLong(JobRow::id);

    private ClaimOrder() {}
}
