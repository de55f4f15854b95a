package dev.runnel.driver;

import java.time.Duration;
import java.time.Instant;

/** Instants as microseconds since the epoch, the precision Runnel stores. Internal SPI. */
public final class Times {
    /**
     * The latest time Runnel stores, 9999-12-31T23:59:59.999999Z: within what both databases keep
     * (Postgres' timestamptz reaches the year 294276; SQLite stores microseconds in a 64-bit
     * integer), the last instant with a four-digit year, which every tool that reads the tables
     * renders, and far enough that a clamped schedule, snooze or retry delay still means "never".
     */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999Z");
    /**
     * The earliest time Runnel stores, 0001-01-01T00:00:00Z, the first instant with a four-digit
     * year. Times before 1970 are ordinary (a job back-dated to come first, a test clock) and kept
     * as given; a time before the year 1 is almost always a sentinel such as {@link Instant#MIN}
     * that was not meant as a time, and Postgres writes those years "BC", so such a time is
     * refused rather than moved.
     */
    public static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");

    private Times() {}

    /**
     * {@code instant} in microseconds since the epoch; an {@link IllegalArgumentException} naming it
     * when that does not fit in a long (beyond about 292,000 years of the epoch), never a value
     * wrapped around to another time.
     */
    public static long toMicros(Instant instant) {
        try {
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("time " + instant + " cannot be stored: Runnel stores times from " + MIN
                    + " to " + MAX);
        }
    }

    public static Instant fromMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** {@code instant} cut to microseconds, as it reads back from the database. */
    public static Instant truncate(Instant instant) {
        return fromMicros(toMicros(instant));
    }

    /**
     * {@code at} as Runnel stores it, checked where a time is given ({@code option} names it in
     * the message): a time after {@link #MAX} is {@code MAX} (so {@link Instant#MAX}, a natural
     * "never", stays never), one before {@link #MIN} is refused with an
     * {@link IllegalArgumentException} quoting it, and any other is kept as it is.
     */
    public static Instant storable(Instant at, String option) {
        if (at == null) {
            throw new IllegalArgumentException(option + " must not be null");
        }
        if (at.isAfter(MAX)) {
            return MAX;
        }
        if (at.isBefore(MIN)) {
            throw new IllegalArgumentException(option + " must not be before " + MIN + ", was " + at);
        }
        return at;
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
