package dev.runnel.postgres;

import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Runnel client in a JVM of its own, for {@link PostgresConcurrencyTest}, driven over its
 * standard streams so that every step is the parent's decision, not a timing guess:
 * it connects and prints {@code READY}; starts working on a {@code GO} line; on a {@code STOP}
 * line (or the end of its input, when the parent is gone) stops gracefully, so that every outcome
 * is written, writes the ids it worked to a file, one per line, and prints {@code DONE <count>}.
 *
 * <p>Arguments: URL, schema, queue, workers, ids file, client id, the most seconds it may live, and
 * optionally how many ms each job takes and {@code fast}, for a cluster of short heartbeats and
 * leases ({@link #FAST_HEARTBEAT}, {@link #FAST_TIMEOUT}, {@link #FAST_LEASE}) so that failover
 * tests need not wait out the defaults. A job numbered {@link #HALT} halts the JVM on the spot, as
 * a job that runs its process out of memory would.
 */
public final class DrainWorkerMain {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    /** The job number that kills the process running it. */
    static final int HALT = -137;
    static final Duration FAST_HEARTBEAT = Duration.ofMillis(200);
    static final Duration FAST_TIMEOUT = Duration.ofSeconds(2);
    static final Duration FAST_LEASE = Duration.ofSeconds(2);

    private DrainWorkerMain() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 7 || args.length > 9) {
            System.err.println("usage: DrainWorkerMain <url> <schema> <queue> <workers> <ids file> <client id> <max seconds>"
                    + " [<work ms> [fast]]");
            System.exit(2);
        }
        String url = args[0];
        String schema = args[1];
        String queue = args[2];
        int workers = Integer.parseInt(args[3]);
        Path idsFile = Path.of(args[4]);
        String clientId = args[5];
        long maxSeconds = Long.parseLong(args[6]);
        startWatchdog(maxSeconds);

        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Duration work = Duration.ofMillis(args.length > 7 ? Long.parseLong(args[7]) : 0);
        DrainWorker worker = new DrainWorker(work);
        RunnelBuilder builder = Runnel.builder()
                .driver(PostgresDriver.builder().url(url).schema(schema).maxPoolSize(4).build())
                .queue(queue, workers)
                .worker(DrainJob.class, job -> {
                    if (job.args().n() == HALT) {
                        out.println("HALTING " + job.id());
                        Runtime.getRuntime().halt(137);
                    }
                    worker.work(job);
                })
                .clientId(clientId)
                .stopTimeout(STOP_TIMEOUT);
        if (args.length > 8 && args[8].equals("fast")) {
            builder.heartbeatInterval(FAST_HEARTBEAT).heartbeatTimeout(FAST_TIMEOUT).leaderLease(FAST_LEASE);
        }
        Runnel runnel = builder.build();
        // Connect before saying READY, so that the parent's GO is not spent opening connections.
        runnel.jobCounts();
        out.println("READY");
        String line = in.readLine();
        if (!"GO".equals(line)) {
            System.err.println("expected GO, got " + line);
            runnel.close();
            System.exit(2);
        }
        runnel.start();
        line = in.readLine();
        if (!"STOP".equals(line)) {
            System.err.println("expected STOP, got " + line + "; stopping anyway");
        }
        // close() stops gracefully: it returns only once every outcome has been written.
        runnel.close();
        Files.writeString(idsFile, worker.ids().stream().map(String::valueOf).collect(Collectors.joining("\n", "", "\n")));
        out.println("DONE " + worker.count());
    }

    /** A child must never outlive a parent that crashed or hung: it ends itself after {@code seconds}. */
    private static void startWatchdog(long seconds) {
        Thread.ofPlatform().daemon().name("drain-watchdog").start(() -> {
            try {
                TimeUnit.SECONDS.sleep(seconds);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("DrainWorkerMain: still running after " + seconds + " s, exiting");
            Runtime.getRuntime().halt(3);
        });
    }
}
