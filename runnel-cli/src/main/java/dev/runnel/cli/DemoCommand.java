package dev.runnel.cli;

import dev.runnel.Drivers;
import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobCount;
import dev.runnel.JobSnooze;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.web.RunnelWeb;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runnel demo}: a small shop's background work on an embedded database, with a live
 * summary of job states.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run example workers against a steady stream of jobs and show a live per-state summary.")
final class DemoCommand implements Callable<Integer> {
    @Mixin
    DatabaseOption database;

    @Mixin
    AllowedHostOption allowedHosts;

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class,
            description = "Stop after this long (e.g. 30s). Default: until Ctrl-C.")
    Duration duration;

    @Option(names = "--port", paramLabel = "P", defaultValue = "8080",
            description = "The dashboard's port on 127.0.0.1, 0 for any free one (default: ${DEFAULT-VALUE}).")
    int port;

    /** Succeeds after a short pause, like sending an email. */
    record SendEmail(String to, String subject) implements JobArgs {
        @Override
        public String kind() {
            return "send_email";
        }
    }

    /** Fails its first attempt (a flaky partner API) and succeeds on the retry. */
    record SyncInventory(String sku) implements JobArgs {
        @Override
        public String kind() {
            return "sync_inventory";
        }
    }

    /** Snoozes once (rate limited), then succeeds. */
    record ChargeCard(long orderId, int cents) implements JobArgs {
        @Override
        public String kind() {
            return "charge_card";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().priority(1).maxAttempts(10).tags("billing").build();
        }
    }

    /** Scheduled for later: a nightly-style report. */
    record BuildReport(String name) implements JobArgs {
        @Override
        public String kind() {
            return "build_report";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().priority(4).build();
        }
    }

    @Override
    public Integer call() throws Exception {
        Flags.between("--port", port, 0, 65_535);
        allowedHosts.check();
        PrintWriter out = spec.commandLine().getOut();
        String url = database.resolved();
        Runnel runnel = withWorkers(Runnel.builder()
                .driver(database.open())
                .autoMigrate(true)
                .stopOnShutdown(true))
                .build();
        RunnelWeb web = null;
        // Ctrl-C ends the main loop, which prints the last summary and closes the client before the JVM exits.
        ShutdownWait shutdown = new ShutdownWait();
        CountDownLatch done = shutdown.requested();
        try {
            runnel.start();
            web = allowedHosts.apply(RunnelWeb.builder(runnel).port(port)).build().start();
            out.println("demo: working jobs in " + Drivers.redact(url) + " (Ctrl-C to stop)");
            out.println("demo: dashboard " + ServeCommand.where(web));
            Thread feeder = Thread.ofPlatform().name("demo-feeder").daemon().start(() -> feed(runnel, done));
            long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end && !done.await(
                    Math.min(2_000, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())), TimeUnit.MILLISECONDS)) {
                out.println("demo: " + summary(runnel));
            }
            shutdown.finish();
            feeder.join(1_000);
            runnel.stop(RunnelBuilder.DEFAULT_STOP_TIMEOUT);
            out.println("demo: stopped; " + summary(runnel));
        } finally {
            if (web != null) {
                web.close();
            }
            runnel.close();
            shutdown.close();
        }
        return 0;
    }

    /** The demo's queue and workers, on {@code builder}: {@code runnel serve --demo-workers} runs them too. */
    static RunnelBuilder withWorkers(RunnelBuilder builder) {
        return builder
                .queue("default", 20)
                .worker(SendEmail.class, job -> pause(20, 150))
                .worker(SyncInventory.class, job -> {
                    pause(10, 50);
                    if (job.attempt() == 1) {
                        throw new IllegalStateException("inventory service timed out (the retry will succeed)");
                    }
                })
                .worker(ChargeCard.class, job -> {
                    if (job.attempt() == 1 && job.errors().isEmpty() && job.row().scheduledAt().equals(job.createdAt())) {
                        throw new JobSnooze(Duration.ofSeconds(3));
                    }
                    pause(5, 30);
                })
                .worker(BuildReport.class, job -> pause(100, 300));
    }

    private static void feed(Runnel runnel, CountDownLatch done) {
        long n = 0;
        try {
            while (!done.await(250, TimeUnit.MILLISECONDS)) {
                n++;
                runnel.insert(new SendEmail("customer" + n + "@example.com", "Your order #" + n));
                if (n % 3 == 0) {
                    runnel.insert(new SyncInventory("SKU-" + n));
                }
                if (n % 4 == 0) {
                    runnel.insert(new ChargeCard(n, 1_000 + (int) n));
                }
                if (n % 8 == 0) {
                    runnel.insert(new BuildReport("sales-" + n), InsertOptions.builder()
                            .scheduledAt(Instant.now().plusSeconds(ThreadLocalRandom.current().nextInt(5, 20))).build());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the client is closing under us
        }
    }

    static String summary(Runnel runnel) {
        Map<JobState, Long> byState = new EnumMap<>(JobState.class);
        for (JobState s : JobState.values()) {
            byState.put(s, 0L);
        }
        for (JobCount c : runnel.jobCounts()) {
            byState.merge(c.state(), c.count(), Long::sum);
        }
        return byState.entrySet().stream().map(e -> e.getKey().dbName() + " " + e.getValue())
                .collect(Collectors.joining(" | "));
    }

    private static void pause(int minMs, int maxMs) throws InterruptedException {
        Thread.sleep(ThreadLocalRandom.current().nextInt(minMs, maxMs));
    }
}
