package dev.runnel.bench;

import dev.runnel.RunnelException;
import dev.runnel.redis.RedisDriver;
import java.util.Map;
import java.util.Optional;

/**
 * What a Redis server did during a drain, from its own {@code INFO}: the commands it ran (from
 * {@code commandstats}, those that functions call included, the {@code INFO} calls of this
 * class not), the function calls among them ({@code FCALL}, {@code FCALL_RO}: one per Runnel
 * operation), and its CPU ({@code used_cpu_sys} plus {@code used_cpu_user} of {@code INFO cpu},
 * the server's main process and its threads, wherever it runs). Each a difference from the
 * figures at the reset, which leaves the server's statistics alone ({@code CONFIG RESETSTAT}
 * would clear them for everyone). The figures are the whole server's: run drains against a server
 * nobody else is loading.
 */
public final class RedisServerStats implements ServerStats {
    private final RedisDriver redis;
    private Map<String, Long> commandsAtReset = Map.of();

    public RedisServerStats(RedisDriver redis) {
        this.redis = redis;
    }

    @Override
    public Optional<String> processName() {
        return Optional.empty();
    }

    @Override
    public Optional<String> resetStatements() {
        try {
            commandsAtReset = calls(redis.serverInfo("commandstats"));
            return Optional.empty();
        } catch (RunnelException e) {
            return Optional.of("INFO commandstats failed: " + e.getMessage());
        }
    }

    @Override
    public long statements() {
        return sinceReset().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Commands by name, those that functions call included ({@code fcall} counts the calls themselves). */
    @Override
    public Map<String, Long> topStatements(int n) {
        Map<String, Long> top = new java.util.LinkedHashMap<>();
        sinceReset().entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /** Calls by command since the reset, this class's {@code INFO} left out. */
    private Map<String, Long> sinceReset() {
        Map<String, Long> since = new java.util.HashMap<>();
        calls(redis.serverInfo("commandstats")).forEach((command, calls) -> {
            if (!command.equals("info")) {
                since.put(command, calls - commandsAtReset.getOrDefault(command, 0L));
            }
        });
        return since;
    }

    @Override
    public String statementsName() {
        return "Redis commands";
    }

    @Override
    public long scriptCalls() {
        Map<String, Long> now = calls(redis.serverInfo("commandstats"));
        long total = 0;
        for (String fcall : new String[] {"fcall", "fcall_ro"}) {
            total += now.getOrDefault(fcall, 0L) - commandsAtReset.getOrDefault(fcall, 0L);
        }
        return total;
    }

    @Override
    public double cpuMillis() {
        try {
            Map<String, String> cpu = redis.serverInfo("cpu");
            return (Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"))) * 1_000;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Calls by command from {@code commandstats} lines {@code cmdstat_NAME:calls=N,usec=...};
     * subcommands ({@code cmdstat_client|kill}) count as their own.
     */
    static Map<String, Long> calls(Map<String, String> commandstats) {
        Map<String, Long> calls = new java.util.HashMap<>();
        for (Map.Entry<String, String> e : commandstats.entrySet()) {
            if (!e.getKey().startsWith("cmdstat_")) {
                continue;
            }
            for (String part : e.getValue().split(",")) {
                if (part.startsWith("calls=")) {
                    calls.put(e.getKey().substring("cmdstat_".length()), Long.parseLong(part.substring(6)));
                }
            }
        }
        return calls;
    }
}
