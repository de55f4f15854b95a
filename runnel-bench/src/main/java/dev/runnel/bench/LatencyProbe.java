package dev.runnel.bench;

import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The working side of the latency bench: a client whose worker notes, as it starts each job, the
 * wall-clock time (microseconds) next to the insert time the job carries, and whose listener notes
 * when the job's completion was stored. Wall clocks, not {@code nanoTime}, so that an insert in one
 * JVM and a start in another compare on one machine. In its own JVM ({@link #main}) it talks over
 * stdin and stdout: after a warm-up, {@code cold MS} and {@code ready}, then on {@code go} it prints
 * {@code started T} and starts the client, then {@code job ID SENT STARTED} per job as it starts
 * and {@code stored ID T} as its completion is stored, and on {@code stop} stops and prints
 * {@code done}.
 */
public final class LatencyProbe {
    /** The variable that carries the database URL to a probe JVM (not its command line, which ps shows). */
    static final String URL_VARIABLE = "RUNNEL_LATENCY_URL";
    /** The {@code sent} of the job waiting before the client starts: its latency runs from the start. */
    static final long BEFORE_START = -1;
    /** The {@code sent} of a background job: worked, not reported. */
    static final long LOAD = -2;

    /** A latency job: when it was inserted, in epoch microseconds, or {@link #BEFORE_START}. */
    public record Args(long sentMicros) implements JobArgs {
        @Override
        public String kind() {
            return "latency_probe";
        }
    }

    /** Hears of each job as its worker starts, and as its completion is stored. */
    @FunctionalInterface
    interface Sink {
        void started(long id, long sentMicros, long startedMicros);

        /** The job's completion was stored (the client's listeners hear of it only then). */
        default void stored(long id, long storedMicros) {}
    }

    private LatencyProbe() {}

    /** Now, in epoch microseconds (Linux's wall clock has microsecond precision or better). */
    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    /**
     * A client of {@code workers} slots on {@code queue}, at the runtime's defaults otherwise; the
     * sink hears of every job but the background ones ({@link #LOAD}).
     */
    static Runnel client(Driver driver, String queue, int workers, Sink sink) {
        Set<Long> reported = ConcurrentHashMap.newKeySet();
        return Runnel.builder()
                .driver(driver)
                .queue(queue, workers)
                .worker(Args.class, job -> {
                    if (job.args().sentMicros() != LOAD) {
                        reported.add(job.id());
                        sink.started(job.id(), job.args().sentMicros(), nowMicros());
                    }
                })
                .listener(event -> {
                    if (event.type() == JobEvent.Type.COMPLETED && reported.remove(event.job().id())) {
                        sink.stored(event.job().id(), nowMicros());
                    }
                })
                .build();
    }

    /**
     * Starts a first client in this JVM, with one job waiting, and stops it once that job has
     * started: the JVM's classes are loaded and its code warm before anything is measured. Returns
     * the cold start's figure, ms from the start call to the job's worker starting.
     */
    static double warmUp(Driver driver) throws InterruptedException {
        String queue = "latency_warmup_" + java.util.UUID.randomUUID().toString().substring(0, 8);
        java.util.concurrent.CompletableFuture<Long> started = new java.util.concurrent.CompletableFuture<>();
        Runnel runnel = client(driver, queue, 1, (id, sent, at) -> started.complete(at));
        runnel.insert(new Args(BEFORE_START), dev.runnel.InsertOptions.builder().queue(queue).build());
        long t0 = nowMicros();
        runnel.start();
        try {
            return (started.get(120, java.util.concurrent.TimeUnit.SECONDS) - t0) / 1e3;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the warm-up job did not start: " + e, e);
        } finally {
            runnel.stop(Duration.ofSeconds(10));
        }
    }

    /** A probe JVM: {@code LatencyProbe QUEUE WORKERS}, the database URL in {@value #URL_VARIABLE}. */
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (Driver driver = dev.runnel.Drivers.open(System.getenv(URL_VARIABLE));
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            Runnel runnel = client(driver, args[0], Integer.parseInt(args[1]), new Sink() {
                @Override
                public void started(long id, long sent, long started) {
                    say("job " + id + " " + sent + " " + started);
                }

                @Override
                public void stored(long id, long storedMicros) {
                    say("stored " + id + " " + storedMicros);
                }

                private void say(String line) {
                    synchronized (out) {
                        out.println(line);
                        out.flush();
                    }
                }
            });
            double cold = warmUp(driver);
            synchronized (out) {
                out.println("cold " + cold);
                out.println("ready");
                out.flush();
            }
            String line;
            while ((line = in.readLine()) != null && !line.equals("go")) {
                // wait for the word
            }
            // Said before the start, which may already run the waiting job.
            synchronized (out) {
                out.println("started " + nowMicros());
                out.flush();
            }
            runnel.start();
            while ((line = in.readLine()) != null && !line.equals("stop")) {
                // work until told to stop
            }
            runnel.stop(Duration.ofSeconds(10));
            synchronized (out) {
                out.println("done");
                out.flush();
            }
        }
    }
}
