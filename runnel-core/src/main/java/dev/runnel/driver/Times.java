package dev.runnel.driver;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/** Instants as microseconds since the epoch, the precision Runnel stores. Internal SPI. */
public final class Times {
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
}
