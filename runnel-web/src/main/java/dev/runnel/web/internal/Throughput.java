package dev.runnel.web.internal;

import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.Jobs;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs completed and failed (discarded) per minute over the last hour, for the overview's chart.
 * Counted from the same cheap counts the overview shows ({@link Jobs#counts()}), sampled every few
 * seconds by the dashboard's process: the change of the totals between samples is what finished
 * in between. No statement reads the job table by {@code finalized_at}, which has no index (one
 * would cost every completion an index entry). The price: the chart starts when the dashboard
 * does; deletions by the cleaner lower the totals (a minute with more deleted than finished shows
 * 0); and where completed jobs are estimated (Postgres, a large table) the minute's figure is the
 * estimate's change, so it is rough.
 */
final class Throughput {
    private static final Logger LOG = LoggerFactory.getLogger(Throughput.class);
    static final int MINUTES = 60;

    private record Sample(Instant minute, long completed, long failed) {}

    private final Jobs jobs;
    private final Clock clock;
    private final Deque<Sample> minutes = new ArrayDeque<>();
    private Sample last;

    Throughput(Jobs jobs, Clock clock) {
        this.jobs = jobs;
        this.clock = clock;
    }

    /** Takes a sample: adds what finished since the last one to the current minute. */
    synchronized void sample() {
        long completed = 0;
        long failed = 0;
        try {
            for (JobCount c : jobs.counts()) {
                if (c.state() == JobState.COMPLETED) {
                    completed += c.count();
                } else if (c.state() == JobState.DISCARDED) {
                    failed += c.count();
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("throughput sample failed; the next one will try again", e);
            return;
        }
        Instant minute = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        if (last != null) {
            long dc = Math.max(0, completed - last.completed());
            long df = Math.max(0, failed - last.failed());
            Sample current = minutes.peekLast();
            if (current != null && current.minute().equals(minute)) {
                minutes.pollLast();
                minutes.addLast(new Sample(minute, current.completed() + dc, current.failed() + df));
            } else {
                minutes.addLast(new Sample(minute, dc, df));
            }
            while (minutes.size() > MINUTES) {
                minutes.pollFirst();
            }
        }
        last = new Sample(minute, completed, failed);
    }

    /** The chart's series: epoch seconds of each of the last 60 minutes, and completed and failed per minute. */
    synchronized Map<String, Object> series() {
        Instant end = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        Map<Instant, Sample> byMinute = new LinkedHashMap<>();
        for (Sample s : minutes) {
            byMinute.put(s.minute(), s);
        }
        List<Long> times = new ArrayList<>();
        List<Long> completed = new ArrayList<>();
        List<Long> failed = new ArrayList<>();
        for (int i = MINUTES - 1; i >= 0; i--) {
            Instant m = end.minus(i, ChronoUnit.MINUTES);
            Sample s = byMinute.get(m);
            times.add(m.getEpochSecond());
            completed.add(s == null ? 0 : s.completed());
            failed.add(s == null ? 0 : s.failed());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("minutes", times);
        out.put("completed", completed);
        out.put("failed", failed);
        out.put("since", minutes.isEmpty() ? null : minutes.peekFirst().minute().toString());
        return out;
    }
}
