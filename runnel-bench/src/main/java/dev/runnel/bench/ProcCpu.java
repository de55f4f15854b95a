package dev.runnel.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of processes, read from Linux's {@code /proc/PID/stat} (user plus system time, in
 * clock ticks of 10 ms; the kernel's USER_HZ is 100 on every mainstream Linux).
 */
final class ProcCpu {
    /** Milliseconds per clock tick in /proc (USER_HZ = 100). */
    static final double MS_PER_TICK = 10.0;

    private ProcCpu() {}

    /** CPU time of one process in ms, or -1 when it is gone or /proc is unavailable. */
    static double millis(long pid) {
        try {
            return statMillis(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU time in ms of the threads of process {@code pid} whose names start with one of
     * {@code prefixes} (a thread's name in /proc is cut at 15 characters), or -1 when /proc is
     * unavailable. A thread that has ended is no longer counted.
     */
    static double threadsMillis(long pid, String... prefixes) {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            double sum = 0;
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    for (String prefix : prefixes) {
                        if (name.startsWith(prefix)) {
                            sum += statMillis(stat);
                            break;
                        }
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended while we looked
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** User plus system time in ms from the text of a process's or thread's {@code stat} file. */
    private static double statMillis(String stat) {
        // The command name (field 2) may hold spaces; the fields after its ')' are fixed.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * MS_PER_TICK;
    }

    /** Resident set size of one process in kB ({@code VmRSS} of /proc/PID/status), or -1 when unavailable. */
    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).strip().split("\\s+")[0]);
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU ms of every process whose command name is {@code comm} (e.g. {@code postgres}), by pid. */
    static Map<Long, Double> byCommand(String comm) {
        Map<Long, Double> out = new HashMap<>();
        try (var dirs = Files.list(Path.of("/proc"))) {
            dirs.forEach(dir -> {
                String name = dir.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    return;
                }
                try {
                    if (Files.readString(dir.resolve("comm")).strip().equals(comm)) {
                        double ms = millis(Long.parseLong(name));
                        if (ms >= 0) {
                            out.put(Long.parseLong(name), ms);
                        }
                    }
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we looked
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        return out;
    }

    /** CPU ms spent since {@code before} by the processes in {@code after} (new ones count whole). */
    static double delta(Map<Long, Double> before, Map<Long, Double> after) {
        double sum = 0;
        for (Map.Entry<Long, Double> e : after.entrySet()) {
            sum += e.getValue() - before.getOrDefault(e.getKey(), 0.0);
        }
        return sum;
    }
}
