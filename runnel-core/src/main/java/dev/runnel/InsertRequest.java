package dev.runnel;

/**
 * One job of a bulk insert ({@link Runnel#insertMany}): its args and options.
 */
public record InsertRequest(JobArgs args, InsertOptions options) {
    public InsertRequest {
        if (args == null) {
            throw new IllegalArgumentException("args must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
    }

    /** A request with no options beyond the defaults. */
    public static InsertRequest of(JobArgs args) {
        return new InsertRequest(args, InsertOptions.NONE);
    }
}
