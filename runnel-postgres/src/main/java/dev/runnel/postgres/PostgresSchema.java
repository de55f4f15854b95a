package dev.runnel.postgres;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The schema a driver keeps its tables in, validated once, and the names derived from it: the
 * quoted form put into SQL, the notification channel, the migration lock key.
 *
 * <p>The name is folded to lower case, as Postgres folds an unquoted identifier, so that
 * {@code schema=Jobs} means the schema {@code jobs} that {@code CREATE SCHEMA Jobs} makes. It is
 * then always quoted in SQL, so that a name that is also a keyword ({@code user}, {@code order})
 * works.
 */
final class PostgresSchema {
    /** The schema used when none is given. */
    static final String DEFAULT = "public";

    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]{0,62}");
    private static final String CHANNEL_PREFIX = "runnel_insert_";
    /** Postgres truncates identifiers, channel names included, to 63 bytes. */
    private static final int MAX_IDENTIFIER_LENGTH = 63;

    private final String name;

    private PostgresSchema(String name) {
        this.name = name;
    }

    /**
     * Validates {@code value} as the schema; {@code option} names where it came from in the
     * message of the {@link IllegalArgumentException} thrown when it is not an SQL identifier.
     */
    static PostgresSchema of(String option, String value) {
        if (value == null || !IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException(option + " must be an SQL identifier ([a-zA-Z_][a-zA-Z0-9_]{0,62}), was "
                    + (value == null ? "null" : "'" + value + "'"));
        }
        return new PostgresSchema(value.toLowerCase(Locale.ROOT));
    }

    /** The schema's name as Postgres stores it. */
    String name() {
        return name;
    }

    /** The name to put into SQL in place of {@code {schema}}. */
    String quoted() {
        return '"' + name + '"';
    }

    /**
     * The channel inserts into this schema are announced on. It names the schema so that two
     * schemas in one database never wake each other; when the name would be too long to be a
     * channel it is replaced by a hash of it.
     */
    String channel() {
        String channel = CHANNEL_PREFIX + name;
        if (channel.length() <= MAX_IDENTIFIER_LENGTH) {
            return channel;
        }
        return CHANNEL_PREFIX + HexFormat.of().toHexDigits(fnv1a("channel:" + name));
    }

    /**
     * The advisory lock key migrators of this schema serialise on. A fixed function of the name
     * (64-bit FNV-1a), so that every Runnel process, of any version, computes the same key.
     */
    long migrationLockKey() {
        return fnv1a("runnel_migrate:" + name);
    }

    private static long fnv1a(String text) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    @Override
    public String toString() {
        return name;
    }
}
