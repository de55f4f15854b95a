package dev.runnel.sqlite;

/**
 * How a write waits while another process holds SQLite's write lock (SQLITE_BUSY). Within one
 * process writes never meet SQLITE_BUSY: they queue on the driver's fair writer lock first.
 */
public enum SqliteBusyWait {
    /**
     * The default. SQLite's own busy handler is off ({@code busy_timeout=0}); Runnel retries at a
     * constant 1 ms interval with a sleep that releases a virtual thread's carrier, and writers of
     * all processes on the file wait their turn in order of arrival (a ticket queue in a small side
     * file next to the database, {@code FILE-runnel-wait}), up to the busy timeout.
     */
    FAIR,
    /**
     * SQLite's native busy handler ({@code busy_timeout}): it sleeps inside native code, pinning the
     * carrier of a virtual thread, and backs off (1, 2, 5 ... 100 ms between tries), so a writer that
     * has waited long retries least often. Kept to compare against {@link #FAIR}.
     */
    NATIVE;

    /** The name in a URL's {@code busy} parameter: {@code fair} or {@code native}. */
    public String urlName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
