package dev.runnel.redis;

import dev.runnel.Runnel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A Runnel client on Redis in a JVM of its own, for {@link RedisFailoverTest}, driven over its
 * standard streams: it connects and prints {@code READY}; starts working on {@code GO}, printing
 * {@code WORKED <id>} as each job arrives; on {@code STOP} (or the end of its input) stops
 * gracefully, every outcome written, and prints {@code DONE <count>}. It runs with short
 * heartbeats and lease ({@link #HEARTBEAT}, {@link #HEARTBEAT_TIMEOUT}, {@link #LEASE}).
 *
 * <p>Arguments: URL, queue, slots, client id, ms each job takes, the most seconds it may live.
 */
public final class RedisWorkerMain {
    static final Duration HEARTBEAT = Duration.ofMillis(200);
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration LEASE = Duration.ofSeconds(2);

    private RedisWorkerMain() {}

    public static void main(String[] args) throws IOException {
        String url = args[0];
        String queue = args[1];
        int slots = Integer.parseInt(args[2]);
        String clientId = args[3];
        Duration work = Duration.ofMillis(Long.parseLong(args[4]));
        long maxSeconds = Long.parseLong(args[5]);
        Thread.ofPlatform().daemon().start(() -> {
            try {
                TimeUnit.SECONDS.sleep(maxSeconds);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("RedisWorkerMain: still running after " + maxSeconds + " s, exiting");
            Runtime.getRuntime().halt(3);
        });
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        FaultWorker worker = new FaultWorker(work, id -> out.println("WORKED " + id));
        Runnel runnel = fast(Runnel.builder()).driver(RedisDriver.open(url)).queue(queue, slots)
                .worker(FaultJob.class, worker).clientId(clientId).fetchPollInterval(Duration.ofMillis(100)).build();
        runnel.jobCounts();
        out.println("READY");
        if (!"GO".equals(in.readLine())) {
            runnel.close();
            System.exit(2);
        }
        runnel.start();
        in.readLine();
        runnel.close();
        out.println("DONE " + worker.count());
    }

    /** Short heartbeats and lease, so that a failover test need not wait out the defaults. */
    static dev.runnel.RunnelBuilder fast(dev.runnel.RunnelBuilder builder) {
        return builder.heartbeatInterval(HEARTBEAT).heartbeatTimeout(HEARTBEAT_TIMEOUT).leaderLease(LEASE)
                .retryPolicy(attempt -> Duration.ofMillis(100));
    }
}
