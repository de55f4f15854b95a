package dev.runnel.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations such as {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h30m}, {@code 7d}, or plain seconds. */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /** {@code d} as this converter reads it: {@code 1h}, {@code 90s}, {@code 250ms}. */
    static String format(Duration d) {
        long millis = d.toMillis();
        if (millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }

    static Duration parse(String value) {
        String v = value.strip();
        if (v.matches("\\d+(\\.\\d+)?")) {
            return Duration.ofNanos((long) (Double.parseDouble(v) * 1e9));
        }
        Matcher m = PART.matcher(v);
        long nanos = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double n = Double.parseDouble(m.group(1));
            nanos += (long) (n * switch (m.group(2)) {
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> 86_400e9;
            });
            end = m.end();
        }
        if (end == 0 || end != v.length()) {
            throw new TypeConversionException("'" + value + "' is not a duration (like 30s, 500ms, 2m, 1h30m, 7d)");
        }
        return Duration.ofNanos(nanos);
    }
}
