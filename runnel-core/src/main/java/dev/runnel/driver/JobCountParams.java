package dev.runnel.driver;

/**
 * How {@link Driver#jobCountByQueueAndState} counts. Internal SPI.
 *
 * @param estimates whether a count that would read a large share of a large table may be
 *     estimated instead (and marked so); false counts every job exactly, however long it takes
 */
public record JobCountParams(boolean estimates) {
    /** Every count exact: for audits, and tables small enough to scan. */
    public static final JobCountParams EXACT = new JobCountParams(false);
    /** Quick enough for a dashboard's every refresh: large counts may be estimates. */
    public static final JobCountParams FAST = new JobCountParams(true);
}
