package dev.runnel;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * When a periodic job fires: a cron expression in a time zone, or a fixed interval. Its ticks are
 * a function of the schedule alone, so every client computes the same ones.
 *
 * <ul>
 * <li>Cron: the five Unix fields ({@code minute hour day-of-month month day-of-week}, e.g.
 *     {@code 0 9 * * MON-FRI}), or six with seconds first ({@code 0 *&#47;5 * * * *}), or one of
 *     {@code @yearly}, {@code @annually}, {@code @monthly}, {@code @weekly}, {@code @daily},
 *     {@code @midnight}, {@code @hourly}. As in Unix cron, a day matches when its day of month
 *     or its day of week does, when both are restricted. Evaluated in the schedule's time zone
 *     (default UTC): a local time skipped by a daylight-saving change does not fire that day, and
 *     one that occurs twice fires once. Parsed and evaluated by cron-utils.
 * <li>Interval: every {@code n} seconds ({@link #MIN_INTERVAL} or more, whole seconds), its ticks
 *     aligned to the epoch ({@code 1970-01-01T00:00:00Z} plus a whole number of intervals), not to
 *     when a client started.
 * </ul>
 *
 * <p>Stored as its {@link #text()}, the expression or {@code @every} and an ISO-8601 duration
 * ({@code @every PT5M}), and its zone; {@link #parse} reads that back.
 */
public final class Schedule {
    /** The shortest interval: 1 s. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
    /**
     * The longest interval: from the epoch to the end of the year 9999, the latest time Runnel
     * stores. A longer one would first tick after it: it would never fire.
     */
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(InsertOptions.MAX_SCHEDULED_AT.getEpochSecond());
    /** The zone of a schedule given none. */
    public static final ZoneId UTC = ZoneId.of("UTC");
    /** The prefix of an interval's text. */
    private static final String EVERY = "@every ";

    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /** Seconds, then exactly the Unix fields: so that both forms mean the same by their shared fields. */
    private static final CronParser WITH_SECONDS = new CronParser(withSeconds());
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    private final String text;
    private final ZoneId zone;
    /** Null for a cron schedule. */
    private final Duration interval;
    /** Null for an interval. */
    private final ExecutionTime cron;

    private Schedule(String text, ZoneId zone, Duration interval, ExecutionTime cron) {
        this.text = text;
        this.zone = zone;
        this.interval = interval;
        this.cron = cron;
    }

    /** A cron schedule in UTC; see the class for the forms accepted. */
    public static Schedule cron(String expression) {
        return cron(expression, UTC);
    }

    /**
     * A cron schedule in {@code zone}. Throws {@link IllegalArgumentException}, quoting the
     * expression, when it does not parse or never fires.
     */
    public static Schedule cron(String expression, ZoneId zone) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("cron expression must not be blank");
        }
        if (zone == null) {
            throw new IllegalArgumentException("zone of cron expression '" + expression + "' must not be null");
        }
        String text = expression.strip().replaceAll("\\s+", " ");
        String fields = MACROS.getOrDefault(text.toLowerCase(Locale.ROOT), text);
        if (fields.startsWith("@")) {
            throw new IllegalArgumentException("cron expression '" + expression + "' is not valid: the macros are "
                    + String.join(", ", MACROS.keySet().stream().sorted().toList()));
        }
        int count = fields.split(" ").length;
        if (count != 5 && count != 6) {
            throw new IllegalArgumentException("cron expression '" + expression + "' is not valid: it has " + count
                    + " fields; give 5 (minute hour day-of-month month day-of-week) or 6 (seconds first)");
        }
        ExecutionTime execution;
        try {
            Cron parsed = (count == 5 ? UNIX : WITH_SECONDS).parse(fields).validate();
            execution = ExecutionTime.forCron(parsed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cron expression '" + expression + "' is not valid: " + e.getMessage(), e);
        }
        Schedule schedule = new Schedule(text, zone, null, execution);
        // Checked from a fixed time, not now, so that the same expression is valid or not on every
        // client and at every hour. Four years and a day cover every calendar (29 February).
        Instant from = Instant.parse("2000-01-01T00:00:00Z");
        Optional<Instant> first;
        try {
            first = schedule.next(from);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cron expression '" + expression + "' cannot be evaluated: " + e, e);
        }
        if (first.filter(t -> t.isBefore(from.plus(Duration.ofDays(4 * 366)))).isEmpty()) {
            throw new IllegalArgumentException("cron expression '" + expression + "' never fires");
        }
        return schedule;
    }

    /**
     * Every {@code interval}, ticks aligned to the epoch. Throws {@link IllegalArgumentException},
     * naming the interval, when it is shorter than {@link #MIN_INTERVAL}, longer than
     * {@link #MAX_INTERVAL}, or not whole seconds.
     */
    public static Schedule every(Duration interval) {
        if (interval == null) {
            throw new IllegalArgumentException("interval must not be null");
        }
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.toNanosPart() != 0) {
            throw new IllegalArgumentException("interval must be whole seconds, at least " + MIN_INTERVAL.toSeconds()
                    + " s, was " + interval);
        }
        if (interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("interval must be at most " + MAX_INTERVAL.toSeconds() + " s (its first"
                    + " tick would come after " + InsertOptions.MAX_SCHEDULED_AT + ", so it would never fire), was " + interval);
        }
        return new Schedule(EVERY + interval, UTC, interval, null);
    }

    /**
     * A schedule from its stored form: {@code @every} and an ISO-8601 duration ({@code @every PT5M}),
     * or a cron expression in {@code zone} (a zone id such as {@code Europe/Berlin} or {@code UTC}).
     */
    public static Schedule parse(String text, String zone) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("schedule must not be blank");
        }
        String t = text.strip();
        if (t.regionMatches(true, 0, EVERY, 0, EVERY.length())) {
            String duration = t.substring(EVERY.length()).strip();
            try {
                return every(Duration.parse(duration));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("interval '" + duration + "' is not an ISO-8601 duration such as"
                        + " PT30S or PT5M");
            }
        }
        return cron(t, zone(zone));
    }

    /** The zone named {@code id}, or an {@link IllegalArgumentException} naming it. */
    public static ZoneId zone(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("zone must not be blank");
        }
        try {
            return ZoneId.of(id.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("zone '" + id + "' is not a time zone id such as UTC or Europe/Berlin");
        }
    }

    /** This cron schedule in {@code zone}; an interval has no zone to change. */
    public Schedule withZone(ZoneId zone) {
        if (interval != null) {
            throw new IllegalArgumentException("zone applies to cron schedules; " + text + " is an interval");
        }
        if (zone == null) {
            throw new IllegalArgumentException("zone must not be null");
        }
        return new Schedule(text, zone, null, cron);
    }

    /** The first tick strictly after {@code after}; empty if there is none (a cron schedule that stopped matching). */
    public Optional<Instant> next(Instant after) {
        Objects.requireNonNull(after, "after");
        if (interval != null) {
            long seconds = interval.getSeconds();
            long k = Math.floorDiv(after.getEpochSecond(), seconds);
            return Optional.of(Instant.ofEpochSecond((k + 1) * seconds));
        }
        return cron.nextExecution(after.atZone(zone)).map(z -> z.toInstant())
                .filter(t -> t.isAfter(after)); // a library slip must never move time backwards
    }

    /** The last tick strictly before {@code before}; empty if there is none. */
    public Optional<Instant> previous(Instant before) {
        Objects.requireNonNull(before, "before");
        if (interval != null) {
            long seconds = interval.getSeconds();
            long k = Math.floorDiv(before.getEpochSecond(), seconds);
            Instant tick = Instant.ofEpochSecond(k * seconds);
            return Optional.of(tick.isBefore(before) ? tick : tick.minusSeconds(seconds));
        }
        return cron.lastExecution(before.atZone(zone)).map(z -> z.toInstant()).filter(t -> t.isBefore(before));
    }

    /** The expression as given (whitespace collapsed), or {@code @every} and the interval. */
    public String text() {
        return text;
    }

    /** The zone cron fields are read in; UTC for an interval. */
    public ZoneId zone() {
        return zone;
    }

    /** The interval, for an interval schedule. */
    public Optional<Duration> interval() {
        return Optional.ofNullable(interval);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule s && s.text.equals(text) && s.zone.equals(zone);
    }

    @Override
    public int hashCode() {
        return text.hashCode() * 31 + zone.hashCode();
    }

    @Override
    public String toString() {
        return interval != null ? text : text + " (" + zone.getId() + ")";
    }

    private static CronDefinition withSeconds() {
        return CronDefinitionBuilder.defineCron()
                .withSeconds().withStrictRange().and()
                .withMinutes().withStrictRange().and()
                .withHours().withStrictRange().and()
                .withDayOfMonth().withStrictRange().and()
                .withMonth().withStrictRange().and()
                .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0).withStrictRange().and()
                .instance();
    }
}
