package dev.runnel.bench;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** Prints {@code bench: jobs worked [ A ], inserted [ B ], job/sec [ C ] [2s]} every two seconds. */
final class Progress {
    private static final long EVERY = TimeUnit.SECONDS.toNanos(2);
    private final PrintWriter out;
    private final boolean showInserted;
    private long lastTick;
    private long lastWorked;
    private long lastInserted;

    Progress(PrintWriter out, boolean showInserted, long start) {
        this.out = out;
        this.showInserted = showInserted;
        this.lastTick = start;
    }

    void maybePrint(long worked, long inserted) {
        long now = System.nanoTime();
        if (now - lastTick < EVERY) {
            return;
        }
        double secs = (now - lastTick) / 1e9;
        out.printf(Locale.ROOT, "bench: jobs worked [ %d ], inserted [ %d ], job/sec [ %.1f ] [%.0fs]%n",
                worked - lastWorked, showInserted ? inserted - lastInserted : 0, (worked - lastWorked) / secs, secs);
        out.flush();
        lastTick = now;
        lastWorked = worked;
        lastInserted = inserted;
    }
}
