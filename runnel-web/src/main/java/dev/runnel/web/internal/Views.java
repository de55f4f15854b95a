package dev.runnel.web.internal;

import dev.runnel.BatchRow;
import dev.runnel.JobCount;
import dev.runnel.JobState;
import dev.runnel.PeriodicRow;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowState;
import dev.runnel.WorkflowTaskRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What the templates call: times for people, and the counts arranged for the overview. */
public final class Views {
    private static final DateTimeFormatter ABSOLUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    /**
     * The jobs table's refresh: every 5 s while the tab is visible and nothing is selected (a
     * refresh would drop the selection: app.js holds such polls, since the Content-Security-Policy
     * lets htmx evaluate no filter expression); only the first page refreshes, later pages stay still.
     */
    public static final String JOBS_POLL = "every 5s";

    /**
     * At most this many characters of a job's args, output or error a listing shows (the API's
     * lists and the jobs table): {@value}. A page of a thousand jobs stays well under a megabyte
     * whatever the jobs hold; the job's own page and {@code GET /api/jobs/{id}} show it whole.
     */
    public static final int PREVIEW = 256;

    private Views() {}

    /** The first {@link #PREVIEW} characters of {@code s} (a surrogate pair kept whole). */
    public static String cut(String s) {
        if (s.length() <= PREVIEW) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(PREVIEW - 1)) ? PREVIEW - 1 : PREVIEW;
        return s.substring(0, end);
    }

    /** Whether {@link #cut} leaves some of {@code s} out. */
    public static boolean cuts(String s) {
        return s.length() > PREVIEW;
    }

    /** How many bytes {@code s} takes as UTF-8, counted without encoding it. */
    public static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** A size for people: {@code 812 B}, {@code 4.1 KB}, {@code 10.0 MB}. */
    public static String bytes(long n) {
        if (n < 1_000) {
            return n + " B";
        }
        return n < 1_000_000 ? String.format(java.util.Locale.ROOT, "%.1f KB", n / 1e3)
                : String.format(java.util.Locale.ROOT, "%.1f MB", n / 1e6);
    }

    /** Counts by state, summed over queues, and by queue then state; {@code exact} false when any is estimated. */
    public record Counts(Map<JobState, Long> total, Map<String, Map<JobState, Long>> byQueue, boolean exact) {
        static Counts of(List<JobCount> counts) {
            Map<JobState, Long> total = zeroes();
            Map<String, Map<JobState, Long>> byQueue = new TreeMap<>();
            boolean exact = true;
            for (JobCount c : counts) {
                total.merge(c.state(), c.count(), Long::sum);
                byQueue.computeIfAbsent(c.queue(), q -> zeroes()).merge(c.state(), c.count(), Long::sum);
                exact &= c.exact();
            }
            return new Counts(total, byQueue, exact);
        }

        /** The count of {@code state} in {@code queue}, 0 when it has none. */
        public long of(String queue, JobState state) {
            return byQueue.getOrDefault(queue, Map.of()).getOrDefault(state, 0L);
        }

        /** Every state's count, summed. */
        public long all() {
            return total.values().stream().mapToLong(Long::longValue).sum();
        }

        private static Map<JobState, Long> zeroes() {
            Map<JobState, Long> m = new EnumMap<>(JobState.class);
            for (JobState s : JobState.values()) {
                m.put(s, 0L);
            }
            return m;
        }
    }

    /** The states in the order the pages show them. */
    public static List<JobState> states() {
        return List.of(JobState.values());
    }

    /** A time relative to {@code now}, such as {@code 3m ago} or {@code in 20s}. */
    public static String ago(Instant t, Instant now) {
        Duration d = Duration.between(t, now);
        boolean future = d.isNegative();
        long s = Math.abs(d.toSeconds());
        String amount = s < 1 ? "now" : s < 60 ? s + "s" : s < 3_600 ? s / 60 + "m" : s < 86_400 ? s / 3_600 + "h"
                : s / 86_400 + "d";
        if (amount.equals("now")) {
            return "just now";
        }
        return future ? "in " + amount : amount + " ago";
    }

    /** The absolute time, for a tooltip. */
    public static String abs(Instant t) {
        return ABSOLUTE.format(t);
    }

    /** A count with thousands separated, {@code ~} in front when estimated. */
    public static String count(long n, boolean exact) {
        return (exact ? "" : "~") + String.format(java.util.Locale.ROOT, "%,d", n);
    }

    public static String pretty(String json) {
        return Json.pretty(json);
    }

    /** The next tick of a periodic job; empty when paused, done, or its stored schedule no longer parses. */
    public static Optional<Instant> nextRun(PeriodicRow p, Instant now) {
        try {
            return p.nextRun(now);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The CSS class of a state: every page colours a state alike. */
    public static String stateClass(JobState s) {
        return "st st-" + s.dbName();
    }

    /** A workflow's state as the pages write it: {@code running}, {@code completed}, {@code failed}, {@code cancelled}. */
    public static String word(WorkflowState s) {
        return s.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The CSS class of a workflow's state, coloured as the job state it stands closest to. */
    public static String stateClass(WorkflowState s) {
        return "st st-" + switch (s) {
            case RUNNING -> "running";
            case COMPLETED -> "completed";
            case FAILED -> "discarded";
            case CANCELLED -> "cancelled";
        };
    }

    /** The states a workflow's tasks move through, in that order, for its counts. */
    public static final List<JobState> TASK_STATES = List.of(JobState.PENDING,
            JobState.SCHEDULED, JobState.AVAILABLE, JobState.RUNNING,
            JobState.RETRYABLE, JobState.COMPLETED, JobState.CANCELLED,
            JobState.DISCARDED);

    /** A workflow's tasks in {@code state}. */
    public static int tasksIn(WorkflowRow w, JobState state) {
        return w.tasks().getOrDefault(state, 0);
    }

    /** A task's state word, {@code deleted} once its job is gone. */
    public static String taskState(WorkflowTaskRow t) {
        return t.state().map(JobState::dbName).orElse("deleted");
    }

    /** A task's state's CSS class. */
    public static String taskStateClass(WorkflowTaskRow t) {
        return t.state().map(Views::stateClass).orElse("st st-deleted");
    }

    /** A part of a batch's progress bar: where it starts and how wide it is, out of {@link #BAR_WIDTH}. */
    public record Segment(int x, int width, String cssClass, String label) {}

    /** The width of a progress bar's drawing, which the page stretches to its box. */
    public static final int BAR_WIDTH = 1_000;

    /**
     * The parts of {@code b}'s progress bar: completed, cancelled, discarded and deleted jobs, in
     * that order, each as wide as its share of the total; what is left is unfinished. A share too
     * small to see is at least one unit wide, so that a single discarded job of a million shows.
     */
    public static List<Segment> bar(BatchRow b) {
        List<Segment> parts = new ArrayList<>();
        if (b.total() <= 0) {
            return parts;
        }
        long[] counts = {b.completed(), b.cancelled(), b.discarded(), b.deleted()};
        String[] names = {"completed", "cancelled", "discarded", "deleted"};
        int x = 0;
        long sum = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                continue;
            }
            sum += counts[i];
            int end = (int) Math.max(x + 1, Math.min(BAR_WIDTH, sum * BAR_WIDTH / b.total()));
            parts.add(new Segment(x, end - x, "seg st-" + names[i], counts[i] + " " + names[i]));
            x = end;
        }
        return parts;
    }

    /** How much of {@code b} is finished, in whole percent, rounded down (100 only when every job is). */
    public static long percentDone(BatchRow b) {
        return b.total() <= 0 ? 0 : b.finished() * 100 / b.total();
    }

    /** Filter values list for selects: names seen in the counts. */
    public static List<String> names(Map<String, ?> byName) {
        return new ArrayList<>(byName.keySet());
    }
}
