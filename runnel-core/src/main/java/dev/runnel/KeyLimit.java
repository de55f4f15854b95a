package dev.runnel;

import java.util.Map;
import java.util.Optional;

/**
 * At most {@code limit} jobs of a queue running at once per key, across all clients, the key
 * being one top-level field of the job's args or metadata (a tenant, a customer, an account),
 * with any number of keys. The key is stored with each job when it is inserted (a job lacking
 * the field has the key {@code ""}); the claim takes jobs from the keys in turn, so that one key
 * with a large backlog does not hold up the others. A key's weight is how many jobs it takes a
 * turn ({@link #withWeights}); a key not named weighs 1. With {@link #withRate}, each key also
 * starts at most so many jobs per period.
 */
public record KeyLimit(Source source, String field, int limit, Map<String, Integer> weights, Optional<RateLimit> rate) {
    /** Where the key is read from. */
    public enum Source { ARGS, METADATA }

    public KeyLimit {
        if (source == null) {
            throw new IllegalArgumentException("key limit source must not be null");
        }
        if (field == null || field.isBlank() || field.length() > InsertOptions.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("key limit field must be a name of 1 to " + InsertOptions.MAX_NAME_LENGTH
                    + " characters, was '" + field + "'");
        }
        if (!field.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("key limit field must be a plain field name ([A-Za-z_][A-Za-z0-9_]*),"
                    + " was '" + field + "'");
        }
        if (limit < 1) {
            throw new IllegalArgumentException("key limit must be at least 1, was " + limit);
        }
        if (weights == null) {
            throw new IllegalArgumentException("key limit weights must not be null");
        }
        for (Map.Entry<String, Integer> w : weights.entrySet()) {
            if (w.getKey() == null || w.getValue() == null || w.getValue() < 1 || w.getValue() > 1_000) {
                throw new IllegalArgumentException("key limit weights must be 1 to 1000 for each named key, was " + weights);
            }
        }
        weights = Map.copyOf(weights);
        if (rate == null) {
            throw new IllegalArgumentException("key limit rate must not be null");
        }
    }

    /** A limit whose keys all weigh 1, without a rate per key. */
    public KeyLimit(Source source, String field, int limit) {
        this(source, field, limit, Map.of(), Optional.empty());
    }

    /** This limit with these keys' weights: a key of weight 3 takes three jobs a turn. */
    public KeyLimit withWeights(Map<String, Integer> weights) {
        return new KeyLimit(source, field, limit, weights, rate);
    }

    /** This limit with a rate per key: each key starts at most {@code jobs} jobs in any {@code period}. */
    public KeyLimit withRate(int jobs, java.time.Duration period) {
        return new KeyLimit(source, field, limit, weights, Optional.of(new RateLimit(jobs, period)));
    }

    /** At most {@code limit} running per value of args field {@code field}. */
    public static KeyLimit byArgs(String field, int limit) {
        return new KeyLimit(Source.ARGS, field, limit);
    }

    /** At most {@code limit} running per value of metadata field {@code field}. */
    public static KeyLimit byMetadata(String field, int limit) {
        return new KeyLimit(Source.METADATA, field, limit);
    }

    /** The source as stored: {@code args} or {@code metadata}. */
    public String sourceName() {
        return source == Source.ARGS ? "args" : "metadata";
    }
}
