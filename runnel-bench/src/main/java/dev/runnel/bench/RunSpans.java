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
 * outcome is written), so a limit that holds in the database holds here too. Each span keeps the
 * job's key (metadata {@value #KEY}, {@code k<n>}), for the most that ran at once for one key.
 */
final class RunSpans implements WorkMiddleware {
    /** The metadata field that holds a drain job's key under a per-key limit. */
    static final String KEY = "key";

    private final List<long[]> spans = new ArrayList<>();

    @Override
    public void work(Job<?> job, Next next) throws Exception {
        long start = micros();
        try {
            next.proceed();
        } finally {
            long end = micros();
            Object key = job.metadata().get(KEY);
            long k = key instanceof String s && s.startsWith("k") ? Long.parseLong(s.substring(1)) : -1;
            synchronized (spans) {
                spans.add(new long[] {start, end, k});
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
                    out.writeLong(span[2]);
                }
            }
        }
    }

    /**
     * The most jobs running at once in the span files {@code files}, overall or, {@code byKey},
     * for any one key. A start and an end at the same microsecond count as overlapping.
     */
    static int mostAtOnce(List<Path> files, boolean byKey) throws IOException {
        java.util.Map<Long, List<long[]>> events = new java.util.HashMap<>(); // key -> {time, +1 start or -1 end}
        for (Path file : files) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                while (true) {
                    try {
                        long start = in.readLong();
                        long end = in.readLong();
                        long key = byKey ? in.readLong() : discard(in);
                        List<long[]> mine = events.computeIfAbsent(key, k -> new ArrayList<>());
                        mine.add(new long[] {start, 1});
                        mine.add(new long[] {end, -1});
                    } catch (EOFException e) {
                        break;
                    }
                }
            }
        }
        int most = 0;
        for (List<long[]> mine : events.values()) {
            // Starts before ends at the same time: never undercount.
            mine.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
            int running = 0;
            for (long[] event : mine) {
                running += (int) event[1];
                most = Math.max(most, running);
            }
        }
        return most;
    }

    private static long discard(DataInputStream in) throws IOException {
        in.readLong();
        return 0;
    }
}
