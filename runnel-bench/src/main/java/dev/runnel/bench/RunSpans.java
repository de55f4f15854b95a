package dev.runnel.bench;

import dev.runnel.Job;
import dev.runnel.WorkMiddleware;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When each job of a drain ran, from its worker's start to its end, in microseconds of the wall
 * clock, which all the drain's processes share: recorded by a work middleware in each worker
 * JVM, and merged by the drain into the most jobs that ran at once anywhere. That bounds from
 * below what the database counted as running (a job is running there from its claim until its
 * outcome is written), so a global limit that holds in the database holds here too.
 */
final class RunSpans implements WorkMiddleware {
    private final List<long[]> spans = new ArrayList<>();

    @Override
    public void work(Job<?> job, Next next) throws Exception {
        long start = micros();
        try {
            next.proceed();
        } finally {
            long end = micros();
            synchronized (spans) {
                spans.add(new long[] {start, end});
            }
        }
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /** Where a worker whose ids go to {@code idsFile} writes its spans. */
    static Path file(Path idsFile) {
        return idsFile.resolveSibling(idsFile.getFileName() + ".spans");
    }

    void write(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            synchronized (spans) {
                for (long[] span : spans) {
                    out.writeLong(span[0]);
                    out.writeLong(span[1]);
                }
            }
        }
    }

    /**
     * The most jobs running at once over the spans of the workers whose ids went to
     * {@code idsFiles}. A start and an end at the same microsecond count as overlapping.
     */
    static int mostAtOnce(List<Path> idsFiles) throws IOException {
        List<long[]> events = new ArrayList<>(); // {time, +1 for a start or -1 for an end}
        for (Path ids : idsFiles) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file(ids))))) {
                while (true) {
                    try {
                        long start = in.readLong();
                        long end = in.readLong();
                        events.add(new long[] {start, 1});
                        events.add(new long[] {end, -1});
                    } catch (EOFException e) {
                        break;
                    }
                }
            }
        }
        // Starts before ends at the same time: never undercount.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
        int running = 0;
        int most = 0;
        for (long[] event : events) {
            running += (int) event[1];
            most = Math.max(most, running);
        }
        return most;
    }
}
