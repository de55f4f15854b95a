package dev.runnel.driver;

import dev.runnel.InsertOptions;
import java.time.Duration;
import java.time.Instant;

/** Instants as microseconds since the epoch, the precision Runnel stores. Internal SPI. */
public final class Times {
    /** The latest time Runnel stores: {@link InsertOptions#MAX_SCHEDULED_AT}, which says why. */
    public static final Instant MAX = InsertOptions.MAX_SCHEDULED_AT;
    /** The earliest time Runnel stores: {@link InsertOptions#MIN_SCHEDULED_AT}, which says why. */
    public static final Instant MIN = InsertOptions.MIN_SCHEDULED_AT;

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
