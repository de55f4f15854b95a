package dev.runnel.driver;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/** Instants as microseconds since the epoch, the precision Runnel stores. Internal SPI. */
public final class Times {
    /**
     * The latest time Runnel stores, 9999-12-31T23:59:59Z: within what both databases keep
     * (Postgres' timestamptz reaches the year 294276; SQLite stores microseconds in a 64-bit
     * integer), and far enough that a clamped snooze or retry delay still means "not soon".
     */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59Z");

    private Times() {}

    public static long toMicros(Instant instant) {
        return TimeUnit.SECONDS.toMicros(instant.getEpochSecond()) + instant.getNano() / 1000;
    }

    public static Instant fromMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** {@code instant} cut to microseconds, as it reads back from the database. */
    public static Instant truncate(Instant instant) {
        return fromMicros(toMicros(instant));
    }

    /**
     * {@code from} plus {@code delay}, never later than {@link #MAX} and never earlier than
     * {@code from}: a worker's snooze or retry delay of any size (even {@code Long.MAX_VALUE}
     * seconds, which would overflow {@link Instant#plus}) gives a time that can be stored.
     */
    public static Instant plusClamped(Instant from, Duration delay) {
        if (delay == null || delay.isNegative() || delay.isZero()) {
            return from;
        }
        if (from.isAfter(MAX) || delay.compareTo(Duration.between(from, MAX)) >= 0) {
            return from.isAfter(MAX) ? from : MAX;
        }
        return from.plus(delay);
    }
}
