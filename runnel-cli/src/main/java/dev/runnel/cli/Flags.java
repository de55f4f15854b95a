package dev.runnel.cli;

/** Range checks of the commands' flags: bad input names the flag, the range and the value, in one line. */
final class Flags {
    private Flags() {}

    /** {@code value} of {@code flag}, or an {@link IllegalArgumentException} when it is outside {@code [min, max]}. */
    static long between(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(flag + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    /** {@code value} of {@code flag}, or an {@link IllegalArgumentException} when it is below {@code min}. */
    static long atLeast(String flag, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(flag + " must be at least " + min + ", was " + value);
        }
        return value;
    }
}
