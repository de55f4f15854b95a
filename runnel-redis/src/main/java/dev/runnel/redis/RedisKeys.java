package dev.runnel.redis;

/**
 * The names of a namespace's keys, as the function library names them (its header lists them
 * all): every one starts with {@code {NAME}:}, so that they share one hash tag and one slot.
 */
final class RedisKeys {
    private RedisKeys() {}

    /** The prefix of every key of namespace {@code name}, the one key every function is called with. */
    static String prefix(String name) {
        return "{" + name + "}:";
    }
}
