package dev.runnel.bench;

import dev.runnel.Batch;
import dev.runnel.BatchResult;
import dev.runnel.BatchRow;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.Workflow;
import dev.runnel.WorkflowResult;
import dev.runnel.WorkflowTask;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Workflows and batches at size: a workflow that fans out to {@code tasks} tasks after one and
 * back in to one, and a batch of {@code batchJobs} no-op jobs with success and complete callbacks,
 * each worked to the end on a fresh database with an exactly-once audit (every job ran once, each
 * callback and the join once) and the time a batch's progress takes to read.
 */
public final class LinkScenario {
    /** A no-op step of the scenario. */
    public record Step(String name, int index) implements JobArgs {
        @Override
        public String kind() {
            return "link_step";
        }
    }

    /** A batch callback. */
    public record Done(String which) implements JobArgs {
        @Override
        public String kind() {
            return "link_done";
        }
    }

    /** The scenario's settings; {@code chains}: how many chains of 10 tasks to time (0: none). */
    public record Options(String url, int tasks, int batchJobs, int workers, Duration timeout, int chains) {
        public Options(String url, int tasks, int batchJobs, int workers, Duration timeout) {
            this(url, tasks, batchJobs, workers, timeout, 30);
        }
    }

    /** What one part measured. */
    public record Part(String name, long jobs, double insertSeconds, double runSeconds, long missing, long duplicates,
            long callbacks, double progressReadMillis, double chainMillis, double insertToStartMillis) {
        Part(String name, long jobs, double insertSeconds, double runSeconds, long missing, long duplicates,
                long callbacks, double progressReadMillis) {
            this(name, jobs, insertSeconds, runSeconds, missing, duplicates, callbacks, progressReadMillis, 0, 0);
        }

        boolean exact() {
            return missing == 0 && duplicates == 0;
        }

        JsonLine json() {
            if (name.equals("chain")) {
                return new JsonLine().put("name", name).put("tasks", jobs).put("chain_median_ms", chainMillis)
                        .put("insert_to_start_median_ms", insertToStartMillis).put("missing", missing);
            }
            return new JsonLine().put("name", name).put("jobs", jobs).put("insert_s", insertSeconds)
                    .put("run_s", runSeconds).put("jobs_per_s", runSeconds > 0 ? jobs / runSeconds : 0.0)
                    .put("missing", missing).put("duplicates", duplicates).put("callbacks", callbacks)
                    .put("progress_read_ms", progressReadMillis);
        }
    }

    private final Options options;
    private final PrintWriter out;

    public LinkScenario(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** Runs the parts asked for; returns their figures. */
    public List<Part> run() throws Exception {
        List<Part> parts = new ArrayList<>();
        if (options.tasks() > 0) {
            parts.add(workflow());
        }
        if (options.batchJobs() > 0) {
            parts.add(batch());
        }
        if (options.chains() > 0) {
            parts.add(chains());
        }
        return parts;
    }

    /** One JSON line of every part's figures. */
    public static String toJson(List<Part> parts, String store) {
        return new JsonLine().put("scenario", "links").put("store", store)
                .put("parts", parts.stream().map(Part::json).toList())
                .put("exact", parts.stream().allMatch(Part::exact)).toString();
    }

    private Part workflow() throws Exception {
        int n = options.tasks();
        IdBitmap ran = new IdBitmap();
        AtomicLong duplicates = new AtomicLong();
        try (BenchDatabase db = BenchDatabase.open(options.url())) {
            Runnel runnel = Runnel.builder().driver(db.driver()).autoMigrate(true).queue("default", options.workers())
                    .worker(Step.class, job -> {
                        if (!ran.add(job.id())) {
                            duplicates.incrementAndGet();
                        }
                    }).build();
            try {
                return workflow(runnel, n, ran, duplicates);
            } finally {
                runnel.stop(STOP); // stopped, not closed: the database closes its driver, after dropping its schema
            }
        }
    }

    private static final Duration STOP = Duration.ofSeconds(30);

    private Part workflow(Runnel runnel, int n, IdBitmap ran, AtomicLong duplicates) throws Exception {
        {
            Workflow.Builder wf = Workflow.builder("fan-out " + n + ", fan-in 1").task("split", new Step("split", 0));
            List<String> parts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                wf.task(WorkflowTask.of("part-" + i, new Step("part", i)).after("split"));
                parts.add("part-" + i);
            }
            wf.task(WorkflowTask.of("join", new Step("join", 0)).after(parts.toArray(String[]::new)));
            Workflow workflow = wf.build();
            runnel.start();
            long start = System.nanoTime();
            WorkflowResult inserted = runnel.workflows().insert(workflow);
            double insertSeconds = (System.nanoTime() - start) / 1e9;
            out.printf("workflow %d: %d tasks inserted in %.2f s%n", inserted.id(), n + 2, insertSeconds);
            out.flush();
            long join = inserted.task("join");
            runnel.jobs().awaitFinal(join, options.timeout());
            double runSeconds = (System.nanoTime() - start) / 1e9 - insertSeconds;
            long missing = inserted.tasks().values().stream().filter(id -> !ran.contains(id)).count();
            JobState joinState = runnel.jobGet(join).orElseThrow().state();
            if (joinState != JobState.COMPLETED) {
                missing++;
            }
            long readStart = System.nanoTime();
            runnel.workflows().get(inserted.id()).orElseThrow();
            double readMillis = (System.nanoTime() - readStart) / 1e6;
            out.printf("workflow: %d tasks ran in %.2f s after the insert (%.0f tasks/s), %d missing, %d twice%n",
                    n + 2, runSeconds, (n + 2) / runSeconds, missing, duplicates.get());
            out.flush();
            return new Part("workflow", n + 2, insertSeconds, runSeconds, missing, duplicates.get(), 1, readMillis);
        }
    }

    private Part batch() throws Exception {
        int n = options.batchJobs();
        int chunk = 10_000;
        IdBitmap ran = new IdBitmap();
        AtomicLong duplicates = new AtomicLong();
        AtomicLong callbacks = new AtomicLong();
        try (BenchDatabase db = BenchDatabase.open(options.url())) {
            Runnel runnel = Runnel.builder().driver(db.driver()).autoMigrate(true).queue("default", options.workers())
                    .worker(Step.class, job -> {
                        if (!ran.add(job.id())) {
                            duplicates.incrementAndGet();
                        }
                    })
                    .worker(Done.class, job -> callbacks.incrementAndGet()).build();
            try {
                return batch(runnel, n, chunk, ran, duplicates, callbacks);
            } finally {
                runnel.stop(STOP);
            }
        }
    }

    /**
     * Chains of 10 no-op tasks, one after another, each timed from its insert to its last task's
     * completion, beside single jobs' insert-to-start in the same client: the release's latency.
     */
    private Part chains() throws Exception {
        java.util.concurrent.ConcurrentHashMap<Long, Long> started = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.ConcurrentHashMap<Long, java.util.concurrent.CountDownLatch> done =
                new java.util.concurrent.ConcurrentHashMap<>();
        try (BenchDatabase db = BenchDatabase.open(options.url())) {
            Runnel runnel = Runnel.builder().driver(db.driver()).autoMigrate(true).queue("default", 10)
                    .worker(Step.class, job -> started.put(job.id(), System.nanoTime()))
                    .listener(e -> {
                        java.util.concurrent.CountDownLatch l = done.get(e.job().id());
                        if (l != null) {
                            l.countDown();
                        }
                    }).build();
            try {
                runnel.start();
                for (int i = 0; i < 200; i++) {
                    runnel.insert(new Step("warm", i));
                }
                Thread.sleep(1000);
                List<Double> single = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    long t0 = System.nanoTime();
                    long id = runnel.insert(new Step("one", i)).id();
                    long deadline = t0 + options.timeout().toNanos();
                    while (!started.containsKey(id) && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    single.add((started.getOrDefault(id, deadline) - t0) / 1e6);
                    Thread.sleep(20);
                }
                List<Double> chains = new ArrayList<>();
                long missing = 0;
                for (int c = 0; c < options.chains(); c++) {
                    Workflow.Builder chain = Workflow.builder("chain " + c).task("t0", new Step("t", 0));
                    for (int i = 1; i < 10; i++) {
                        chain.task("t" + i, new Step("t", i), "t" + (i - 1));
                    }
                    Workflow workflow = chain.build();
                    java.util.concurrent.CountDownLatch last = new java.util.concurrent.CountDownLatch(1);
                    long t0 = System.nanoTime();
                    WorkflowResult wf = runnel.workflows().insert(workflow);
                    done.put(wf.task("t9"), last);
                    if (runnel.jobGet(wf.task("t9")).orElseThrow().state() != JobState.COMPLETED
                            && !last.await(options.timeout().toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
                        missing++;
                    }
                    chains.add((System.nanoTime() - t0) / 1e6);
                    Thread.sleep(20);
                }
                java.util.Collections.sort(single);
                java.util.Collections.sort(chains);
                double p50 = single.get(single.size() / 2);
                double chain = chains.get(chains.size() / 2);
                out.printf("chains: %d chains of 10 tasks, median %.2f ms from insert to the last task's completion;"
                        + " single jobs' insert-to-start median %.2f ms (10 times: %.2f ms)%n", chains.size(), chain, p50,
                        10 * p50);
                out.flush();
                return new Part("chain", 10L * chains.size(), 0, chain / 1000, missing, 0, 0, 0, chain, p50);
            } finally {
                runnel.stop(STOP);
            }
        }
    }

    private Part batch(Runnel runnel, int n, int chunk, IdBitmap ran, AtomicLong duplicates, AtomicLong callbacks)
            throws Exception {
        {
            runnel.start();
            long start = System.nanoTime();
            BatchResult batch = null;
            List<long[]> ids = new ArrayList<>();
            for (int from = 0; from < n; from += chunk) {
                List<InsertRequest> jobs = new ArrayList<>(chunk);
                for (int i = from; i < Math.min(n, from + chunk); i++) {
                    jobs.add(InsertRequest.of(new Step("row", i)));
                }
                BatchResult part = batch == null
                        ? runnel.batches().insert(Batch.builder().name(n + " rows").onSuccess(new Done("success"))
                                .onComplete(new Done("complete")).build(), jobs)
                        : runnel.batches().add(batch.id(), jobs);
                batch = batch == null ? part : batch;
                ids.add(part.jobs().stream().mapToLong(r -> r.id()).toArray());
            }
            double insertSeconds = (System.nanoTime() - start) / 1e9;
            out.printf("batch %d: %d jobs inserted in %.2f s%n", batch.id(), n, insertSeconds);
            out.flush();
            long deadline = System.nanoTime() + options.timeout().toNanos();
            BatchRow row;
            double readMillis = 0;
            while (true) {
                long readStart = System.nanoTime();
                row = runnel.batches().get(batch.id()).orElseThrow();
                readMillis = (System.nanoTime() - readStart) / 1e6;
                if (row.isComplete() && callbacks.get() >= 2) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the batch did not finish within " + options.timeout() + ": " + row);
                }
                Thread.sleep(20);
            }
            double runSeconds = (System.nanoTime() - start) / 1e9 - insertSeconds;
            Thread.sleep(200); // a second callback run, were there one, would show here
            long missing = 0;
            for (long[] part : ids) {
                for (long id : part) {
                    missing += ran.contains(id) ? 0 : 1;
                }
            }
            out.printf("batch: %d jobs ran in %.2f s after the insert (%.0f jobs/s), %d missing, %d twice, %d callbacks;"
                    + " progress read in %.2f ms%n", n, runSeconds, n / runSeconds, missing, duplicates.get(),
                    callbacks.get(), readMillis);
            out.flush();
            long extraCallbacks = Math.max(0, callbacks.get() - 2);
            return new Part("batch", n, insertSeconds, runSeconds, missing, duplicates.get() + extraCallbacks,
                    callbacks.get(), readMillis);
        }
    }
}
