package dev.runnel.bench;

import com.sun.net.httpserver.HttpServer;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.Migrator;
import dev.runnel.QueueExecutor;
import dev.runnel.Runnel;
import dev.runnel.sqlite.SqliteDriver;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The embedded-latency scenario: a request that makes ten 1 ms waits (ten quick calls to a cache),
 * served while CPU-bound jobs run in the same JVM. Three cases: (a) no jobs; (b) jobs on virtual
 * threads at normal priority, four per core running at once; (c) the same jobs on a pool of
 * platform threads at a lowered nice, as embedded mode runs them. Each case sends the same number
 * of requests from a few closed-loop clients and reports p50, p99 and p99.9 of their latency.
 *
 * <p>The jobs go through a real client on a SQLite file in a temporary directory. Each job computes
 * a Fibonacci number recursively for a few milliseconds of CPU and inserts its successor, so that
 * the queue always holds more than its workers can take and stays saturated.
 */
public final class EmbeddedLatency {
    /** The target: (c)'s p99 at most this many times (a)'s. */
    public static final double TARGET_RATIO = 1.5;
    /** Requests measured per case, at least. */
    public static final int MIN_REQUESTS = 2_000;
    /** Jobs running at once per core. */
    public static final int JOBS_PER_CORE = 4;
    private static final int SLEEPS = 10;

    /** What the server's handlers run on: a fixed pool of platform threads, or a virtual thread per request. */
    public enum ServerThreads { PLATFORM, VIRTUAL }

    /**
     * @param requests requests measured per case, in {@code rounds} turns, each after {@code warmup} unmeasured ones
     * @param concurrency closed-loop clients sending them
     * @param nice the job pool's nice value in case (c)
     * @param jobMillis about how much CPU each job burns
     */
    public record Options(int requests, int rounds, int warmup, int concurrency, int nice, int jobMillis,
            ServerThreads serverThreads) {
        public Options {
            if (rounds < 1 || rounds > requests / 100) {
                throw new IllegalArgumentException("rounds must be between 1 and requests / 100, was " + rounds);
            }
            if (requests < MIN_REQUESTS) {
                throw new IllegalArgumentException("requests must be at least " + MIN_REQUESTS + ", was " + requests);
            }
            if (warmup < 0 || concurrency < 1 || concurrency > 64 || jobMillis < 1 || jobMillis > 1_000) {
                throw new IllegalArgumentException("warmup >= 0, concurrency 1..64 and jobMillis 1..1000 are required");
            }
            new QueueExecutor.PlatformThreads(nice); // validates the range
        }
    }

    /** The job: burn CPU, then keep the queue full. */
    public record Crunch(int n) implements JobArgs {
        @Override
        public String kind() {
            return "crunch";
        }
    }

    private final Options options;
    private final PrintWriter progress;
    private final int cores = Runtime.getRuntime().availableProcessors();

    public EmbeddedLatency(Options options, PrintWriter progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Runs the three cases and returns their figures. */
    public EmbeddedLatencyResult run() throws Exception {
        int fibN = calibrate(options.jobMillis());
        progress.printf("%d cores, %d jobs at once, fib(%d) per job (about %d ms), %d requests per case in %d rounds from %d"
                + " clients, server on %s threads%n", cores, cores * JOBS_PER_CORE, fibN, options.jobMillis(),
                options.requests(), options.rounds(), options.concurrency(), options.serverThreads().name().toLowerCase());
        progress.flush();
        ExecutorService handlers = options.serverThreads() == ServerThreads.VIRTUAL
                ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(Math.max(16, options.concurrency() * 2),
                        Thread.ofPlatform().name("http-", 1).daemon().factory());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                for (int i = 0; i < SLEEPS; i++) {
                    Thread.sleep(1);
                }
                byte[] body = "ok".getBytes();
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.setExecutor(handlers);
        server.start();
        Path dir = Files.createTempDirectory("runnel-embedded-latency");
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            List<Spec> specs = List.of(new Spec("a", "no jobs", null),
                    new Spec("b", "jobs on virtual threads, normal priority", QueueExecutor.virtualThreads()),
                    new Spec("c", "jobs on platform threads at nice " + options.nice(),
                            QueueExecutor.platformThreads(options.nice())));
            // The cases take turns, a round each at a time, so that a burst of load from elsewhere on
            // the machine falls on all of them alike rather than on whichever ran then.
            List<Tally> tallies = specs.stream().map(spec -> new Tally(options.requests())).toList();
            for (int round = 0; round < options.rounds(); round++) {
                int from = options.requests() * round / options.rounds();
                int to = options.requests() * (round + 1) / options.rounds();
                for (int c = 0; c < specs.size(); c++) {
                    measure(specs.get(c), http, uri, fibN, dir, round, tallies.get(c), from, to);
                }
            }
            List<EmbeddedLatencyResult.Case> cases = new ArrayList<>();
            for (int c = 0; c < specs.size(); c++) {
                cases.add(tallies.get(c).result(specs.get(c)));
                EmbeddedLatencyResult.Case r = cases.getLast();
                progress.printf("(%s) %-45s p50 %7.2f ms  p99 %7.2f ms  p99.9 %7.2f ms  jobs in worker %.1f%n", r.name(),
                        r.what(), r.p50(), r.p99(), r.p999(), r.meanJobsRunning());
            }
            progress.flush();
            return new EmbeddedLatencyResult(cores, cores * JOBS_PER_CORE, options.nice(), fibN, options, cases);
        } finally {
            server.stop(0);
            handlers.shutdownNow();
            deleteTree(dir);
        }
    }

    /** A case: with {@code executor} null, no client at all. */
    private record Spec(String name, String what, QueueExecutor executor) {}

    /** A case's figures, summed over its rounds. */
    private static final class Tally {
        final long[] latencies;
        final RunningSampler sampler = new RunningSampler();
        long jobs;
        double seconds;

        Tally(int requests) {
            latencies = new long[requests];
        }

        EmbeddedLatencyResult.Case result(Spec spec) {
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            return new EmbeddedLatencyResult.Case(spec.name(), spec.what(), sorted.length,
                    ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)), ms(percentile(sorted, 0.999)),
                    ms(sorted[sorted.length - 1]), sampler.mean(), seconds == 0 ? 0 : jobs / seconds);
        }
    }

    /** One round of one case: requests {@code from} (inclusive) to {@code to} of its tally. */
    private void measure(Spec spec, HttpClient http, URI uri, int fibN, Path dir, int round, Tally tally, int from,
            int to) throws Exception {
        int workers = cores * JOBS_PER_CORE;
        AtomicInteger running = new AtomicInteger();
        AtomicLong jobsDone = new AtomicLong();
        Runnel runnel = null;
        SqliteDriver driver = null;
        if (spec.executor() != null) {
            driver = SqliteDriver.open(dir.resolve("case-" + spec.name() + "-" + round + ".db"));
            new Migrator(driver).up();
            Runnel[] self = new Runnel[1];
            InsertOptions crunch = InsertOptions.builder().queue("crunch").build();
            runnel = Runnel.builder().driver(driver)
                    .queue("crunch", workers, spec.executor())
                    // Refill a slot as soon as it frees, so that the workers stay busy.
                    .fetchCooldown(Duration.ofMillis(1))
                    .completerFlushInterval(Duration.ofMillis(1))
                    .worker(Crunch.class, job -> {
                        running.incrementAndGet();
                        try {
                            sink ^= fib(job.args().n());
                        } finally {
                            running.decrementAndGet();
                        }
                        jobsDone.incrementAndGet();
                        self[0].insert(job.args(), crunch);
                    })
                    .build();
            self[0] = runnel;
            // Three jobs per worker: whichever finish, the queue never runs dry while successors are inserted.
            List<InsertRequest> seed = new ArrayList<>();
            for (int i = 0; i < workers * 3; i++) {
                seed.add(new InsertRequest(new Crunch(fibN), crunch));
            }
            runnel.insertMany(seed);
            runnel.start();
            Thread.sleep(300); // the workers fill up
        }
        try {
            send(http, uri, 0, options.warmup(), null);
            long doneBefore = jobsDone.get();
            long start = System.nanoTime();
            send(http, uri, from, to, new Recorder(tally.latencies, tally.sampler, running));
            tally.seconds += (System.nanoTime() - start) / 1e9;
            tally.jobs += jobsDone.get() - doneBefore;
        } finally {
            if (runnel != null) {
                runnel.stop(Duration.ZERO);
                driver.close();
            }
        }
    }

    /** Sends requests {@code from} to {@code to} from the clients, each waiting for its reply before the next. */
    private void send(HttpClient http, URI uri, int from, int count, Recorder recorder) throws InterruptedException {
        AtomicInteger next = new AtomicInteger(from);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build();
        List<Thread> clients = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int c = 0; c < options.concurrency(); c++) {
            clients.add(Thread.ofPlatform().name("load-" + c).start(() -> {
                int i;
                while ((i = next.getAndIncrement()) < count) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
                        if (response.statusCode() != 200) {
                            throw new IOException("HTTP " + response.statusCode());
                        }
                    } catch (IOException | InterruptedException e) {
                        failures.add(e);
                        return;
                    }
                    if (recorder != null) {
                        recorder.record(i, System.nanoTime() - t0);
                    }
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a request failed: " + failures.getFirst(), failures.getFirst());
        }
    }

    /** Where each request's latency goes, and a sample of the jobs running as it ends. */
    private record Recorder(long[] latencies, RunningSampler sampler, AtomicInteger running) {
        void record(int i, long nanos) {
            latencies[i] = nanos;
            sampler.sample(running.get());
        }
    }

    /** The mean number of jobs running, sampled as each request ends. */
    private static final class RunningSampler {
        private final AtomicLong sum = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();

        void sample(int running) {
            sum.addAndGet(running);
            samples.incrementAndGet();
        }

        double mean() {
            long n = samples.get();
            return n == 0 ? 0 : (double) sum.get() / n;
        }
    }

    /** Written by every job, so that the JIT cannot drop the computation. */
    static volatile long sink;

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** The smallest n whose fib(n) takes at least {@code millis} on this machine now, after warming up. */
    static int calibrate(int millis) {
        for (int i = 0; i < 200; i++) {
            sink ^= fib(20);
        }
        for (int n = 15; n < 45; n++) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                sink ^= fib(n);
                best = Math.min(best, System.nanoTime() - t0);
            }
            if (best >= millis * 1_000_000L) {
                return n;
            }
        }
        return 45;
    }

    static long percentile(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temp dir left behind is no reason to lose the figures
        }
    }
}
