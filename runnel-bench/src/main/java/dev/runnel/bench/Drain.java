package dev.runnel.bench;

import dev.runnel.InsertOptions;
import dev.runnel.KeyLimit;
import dev.runnel.JobCount;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Migrator;
import dev.runnel.Runnel;
import dev.runnel.driver.Driver;
import dev.runnel.driver.QueueRegisterParams;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The drain harness ({@code runnel drain}): inserts N no-op jobs outside the timed window, starts P
 * fresh worker JVMs ({@link DrainWorker}) with T concurrent jobs each, times the drain from "go"
 * until every completion is written, and audits the result: each job worked exactly once (from
 * the ids every worker recorded) and every stored job completed at attempt 1 (at most once, the
 * claims removed the jobs, so none may be left at all). Cost per job:
 * statements (on Redis, commands and function calls) from the server's statistics, CPU of the
 * worker JVMs from /proc and of the server from its own report or its processes in /proc, all
 * measured over the drain alone.
 *
 * <p>With a kill time, one worker JVM is SIGKILLed that long after "go" (or, if it has not stored a
 * completion by then, as soon as it has), and the others must
 * finish every job: those it was running are rescued once its heartbeat expires. Then every
 * job must end completed, and only jobs the killed worker attempted may have run twice.
 */
public final class Drain {
    /**
     * The drain's settings.
     *
     * @param cooldown each worker's fetch cooldown
     * @param warmup jobs each worker JVM works on a queue of its own before the timed drain (inserted
     *     by the harness)
     * @param jobTime how long each job takes (a sleep); zero for no-op jobs
     * @param killWorkerAfter when to SIGKILL one worker JVM, after "go"; zero for never
     * @param globalLimit the queue's global limit, 0 for none
     * @param perKey the queue's per-key limit, 0 for none, over {@code keys} keys (job {@code i} has
     *     key {@code i % keys}, in its metadata)
     * @param deleteCompleted the workers keep no completed jobs (their retention is zero), so that
     *     each completion deletes its job
     * With a limit, the workers record when each job ran, and the drain reports the most that ran
     * at once, overall and for any one key.
     */
    public record Options(String url, long jobs, int processes, int threads, Duration cooldown, int warmup,
            Runnel.Delivery delivery, Duration timeout, Duration jobTime, Duration killWorkerAfter, int globalLimit,
            int perKey, int keys, boolean deleteCompleted) {
        /** A drain whose workers keep their completed jobs. */
        public Options(String url, long jobs, int processes, int threads, Duration cooldown, int warmup,
                Runnel.Delivery delivery, Duration timeout, Duration jobTime, Duration killWorkerAfter, int globalLimit,
                int perKey, int keys) {
            this(url, jobs, processes, threads, cooldown, warmup, delivery, timeout, jobTime, killWorkerAfter,
                    globalLimit, perKey, keys, false);
        }

        /** A drain of no-op jobs in which no worker is killed. */
        public Options(String url, long jobs, int processes, int threads, Duration cooldown, int warmup,
                Runnel.Delivery delivery, Duration timeout) {
            this(url, jobs, processes, threads, cooldown, warmup, delivery, timeout, Duration.ZERO, Duration.ZERO, 0, 0, 0);
        }

        boolean limited() {
            return globalLimit > 0 || perKey > 0;
        }

        boolean kills() {
            return !killWorkerAfter.isZero();
        }
    }

    /** How often the database is asked how many jobs completed, once a worker was killed. */
    private static final long COUNT_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Driver driver;
    private final ServerStats server;
    private final Options options;
    private final PrintWriter out;

    public Drain(Driver driver, ServerStats server, Options options, PrintWriter out) {
        this.driver = driver;
        this.server = server;
        this.options = options;
        this.out = out;
    }

    public DrainResult run() throws IOException, InterruptedException {
        new Migrator(driver).up();
        String queue = "drain_" + UUID.randomUUID().toString().substring(0, 8);
        // An insert-only client: it holds nothing but the driver, which the caller closes.
        Runnel inserter = Runnel.builder().driver(driver).build();
        IdBitmap inserted = insert(inserter, queue);
        insertWarmUps(inserter, queue);
        out.printf("drain: inserted %d jobs into queue %s; starting %d worker JVMs x %d jobs%n",
                options.jobs(), queue, options.processes(), options.threads());
        out.flush();

        Path dir = Files.createTempDirectory("runnel-drain");
        List<Child> children = new ArrayList<>();
        try {
            for (int i = 0; i < options.processes(); i++) {
                children.add(Child.start(options, queue, warmUpQueue(queue, i), dir.resolve("ids-" + i)));
            }
            for (Child c : children) {
                String ready = c.awaitLine("ready", Duration.ofSeconds(180));
                c.clientId = ready.substring("ready".length()).strip();
            }
            Optional<String> statementsNote = server.resetStatements();
            ServerCpu serverCpuFrom = new ServerCpu(server);
            double[] workerBefore = children.stream().mapToDouble(c -> ProcCpu.millis(c.process.pid())).toArray();
            double[] jitBefore = children.stream().mapToDouble(c -> jitMillis(c.process.pid())).toArray();
            Optional<ServerStats.Writes> writesBefore = server.writes();

            long start = System.nanoTime();
            children.forEach(c -> c.send("go"));
            long deadline = start + options.timeout().toNanos();
            long killAt = start + options.killWorkerAfter().toNanos();
            Child killed = null;
            long nextCount = 0;
            long completed = 0;
            while (completed < options.jobs()) {
                long now = System.nanoTime();
                if (now - deadline > 0) {
                    throw new IllegalStateException("the drain did not finish within " + options.timeout() + ": "
                            + completed + " of " + options.jobs() + " jobs completed"
                            + children.stream().map(Child::stderrTail).reduce("", String::concat));
                }
                // Killed once it is really at work, having stored a completion: a worker still starting
                // up would die holding nothing, and prove nothing.
                if (options.kills() && killed == null && now - killAt >= 0 && children.getFirst().progress.get() > 0) {
                    killed = children.getFirst();
                    killed.process.destroyForcibly(); // SIGKILL: no shutdown hook, no last write
                    out.printf(Locale.ROOT, "drain: SIGKILLed worker %s (pid %d) %.1f s after go, with %d completions"
                            + " reported%n", killed.clientId, killed.process.pid(), (now - start) / 1e9, killed.progress.get());
                    out.flush();
                }
                for (Child c : children) {
                    if (c != killed && !c.process.isAlive()) {
                        throw new IllegalStateException("a worker JVM died: " + c.stderrTail());
                    }
                }
                if (killed == null) {
                    completed = children.stream().mapToLong(c -> c.progress.get()).sum();
                    Thread.sleep(1);
                } else if (now - nextCount >= 0) {
                    // The killed worker's last report may lag what it stored: ask the database.
                    completed = completedIn(queue);
                    nextCount = now + COUNT_POLL_NANOS;
                } else {
                    Thread.sleep(5);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double workerCpu = 0;
            double jitCpu = 0;
            for (int i = 0; i < children.size(); i++) {
                if (children.get(i) != killed) {
                    long pid = children.get(i).process.pid();
                    workerCpu += ProcCpu.millis(pid) - workerBefore[i];
                    double jit = jitMillis(pid);
                    // A compiler thread that ended took its time out of the sum: never count less than none.
                    jitCpu = jitCpu < 0 || jit < 0 || jitBefore[i] < 0 ? -1 : jitCpu + Math.max(0, jit - jitBefore[i]);
                }
            }
            double serverCpu = serverCpuFrom.millisSince();
            boolean serverCpuMeasured = serverCpuFrom.measured();
            long statements = statementsNote.isEmpty() ? server.statements() : -1;
            long scriptCalls = statementsNote.isEmpty() ? server.scriptCalls() : -1;

            List<Child> survivors = new ArrayList<>(children);
            survivors.remove(killed);
            survivors.forEach(c -> c.send("stop"));
            long workedDuplicates = 0;
            for (Child c : survivors) {
                String done = c.awaitLine("done", Duration.ofSeconds(60));
                workedDuplicates += Long.parseLong(done.split(" ")[1]);
                c.process.waitFor(30, TimeUnit.SECONDS);
            }
            // Read once the workers' connections are gone: their backends report what they wrote at exit.
            Thread.sleep(writesBefore.isPresent() ? 500 : 0);
            Optional<ServerStats.Writes> writes = writesBefore.flatMap(b -> server.writes().map(a -> a.minus(b)));
            Audit audit = audit(queue, inserted, survivors, killed == null ? null : killed.clientId);
            return new DrainResult(driver.name(), BenchJobs.mode(options.delivery()), options.jobs(), options.processes(), options.threads(),
                    options.cooldown().toNanos() / 1e6, seconds, options.jobs() / seconds,
                    server.statementsName(), statements < 0 ? null : (double) statements / options.jobs(),
                    scriptCalls < 0 ? null : (double) scriptCalls / options.jobs(),
                    statementsNote.orElse(null), workerCpu / options.jobs(), jitCpu < 0 ? null : jitCpu / options.jobs(),
                    serverCpuMeasured ? serverCpu / options.jobs() : null,
                    audit.duplicates + workedDuplicates, audit.missing, audit.attemptNotOne, audit.notCompleted,
                    killed == null ? null : killed.clientId, audit.repeatsOfKilled,
                    options.globalLimit() > 0 ? options.globalLimit() : null,
                    options.limited() ? RunSpans.mostAtOnce(spanFiles(survivors), false) : null,
                    options.perKey() > 0 ? options.perKey() : null,
                    options.perKey() > 0 ? RunSpans.mostAtOnce(spanFiles(survivors), true) : null,
                    writes.map(w -> (double) w.walBytes() / options.jobs()).orElse(null),
                    writes.map(w -> (double) w.updated() / options.jobs()).orElse(null),
                    writes.map(w -> w.updated() == 0 ? 0.0 : 100.0 * w.hotUpdated() / w.updated()).orElse(null),
                    options.deleteCompleted());
        } finally {
            for (Child c : children) {
                c.process.destroyForcibly();
            }
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * CPU ms of a worker JVM's JIT compiler threads (HotSpot names them "C1 CompilerThread<n>" and
     * "C2 CompilerThread<n>"): code still being compiled after the warm-up, not the runtime's work.
     */
    private static double jitMillis(long pid) {
        return ProcCpu.threadsMillis(pid, "C1 CompilerThre", "C2 CompilerThre");
    }

    private static List<Path> spanFiles(List<Child> workers) {
        return workers.stream().map(c -> RunSpans.file(c.idsFile)).toList();
    }

    private IdBitmap insert(Runnel inserter, String queue) {
        IdBitmap inserted = new IdBitmap();
        InsertOptions plain = InsertOptions.builder().queue(queue).build();
        if (options.perKey() == 0) {
            BenchJobs.insert(inserter, plain, options.jobs(), inserted);
            return inserted;
        }
        // The limit first, so that each job gets its key as it is inserted.
        driver.queueRegister(new QueueRegisterParams(List.of(queue), java.time.Instant.now()));
        inserter.queues().setKeyLimit(queue, KeyLimit.byMetadata(RunSpans.KEY, options.perKey()));
        InsertOptions[] byKey = new InsertOptions[options.keys()];
        for (int k = 0; k < byKey.length; k++) {
            byKey[k] = InsertOptions.builder().queue(queue).metadata(java.util.Map.of(RunSpans.KEY, "k" + k)).build();
        }
        BenchJobs.insert(inserter, i -> byKey[(int) (i % byKey.length)], options.jobs(), inserted, 10_000);
        return inserted;
    }

    /**
     * Each worker's warm-up jobs, in a queue of its own, inserted here rather than by the worker:
     * a worker JVM then compiles only what a worker runs. Inserting them itself, each worker's C2
     * compiler spent seconds on the insert path (Jackson's serializer, the inserter), work still
     * queued when the timed drain began.
     */
    private void insertWarmUps(Runnel inserter, String queue) {
        if (options.warmup() == 0) {
            return;
        }
        for (int i = 0; i < options.processes(); i++) {
            BenchJobs.insert(inserter, InsertOptions.builder().queue(warmUpQueue(queue, i)).build(), options.warmup(),
                    new IdBitmap());
        }
    }

    /** The queue of worker {@code worker}'s warm-up jobs, beside the drain's {@code queue}. */
    static String warmUpQueue(String queue, int worker) {
        return queue + "_warmup_" + worker;
    }

    /** The completed jobs of {@code queue}, as the database counts them. */
    private long completedIn(String queue) {
        return driver.jobCountByState().stream()
                .filter(c -> c.queue().equals(queue) && c.state() == JobState.COMPLETED)
                .mapToLong(JobCount::count).sum();
    }

    /**
     * @param duplicates jobs worked more than once
     * @param repeatsOfKilled of those, the jobs the killed worker attempted first: the only ones
     *     that may run twice, their attempt having died with it
     */
    private record Audit(long duplicates, long missing, long attemptNotOne, long notCompleted, long repeatsOfKilled) {}

    /**
     * Cross-checks the ids the workers ran against those inserted, and every stored row. With a
     * killed worker, whose record of the ids it ran died with it, the rows say what ran: every job
     * must be completed, and a job attempted more than once counts as a repeat.
     */
    private Audit audit(String queue, IdBitmap inserted, List<Child> survivors, String killed) throws IOException {
        IdBitmap worked = new IdBitmap();
        long duplicates = 0;
        for (Child c : survivors) {
            try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(c.idsFile)))) {
                while (true) {
                    long id;
                    try {
                        id = in.readLong();
                    } catch (EOFException end) {
                        break;
                    }
                    if (!worked.add(id)) {
                        duplicates++; // worked by two processes
                    }
                }
            }
        }
        IdBitmap completed = new IdBitmap();
        long attemptNotOne = 0;
        long notCompleted = 0;
        long repeatsOfKilled = 0;
        long after = 0;
        while (true) {
            List<JobRow> page = driver.jobList(JobQuery.all().queue(queue).afterId(after).limit(10_000));
            if (page.isEmpty()) {
                break;
            }
            for (JobRow row : page) {
                if (row.attempt() != 1) {
                    attemptNotOne++;
                    if (killed != null && !row.attemptedBy().isEmpty() && row.attemptedBy().getFirst().equals(killed)) {
                        repeatsOfKilled++;
                    }
                }
                if (row.state() == JobState.COMPLETED) {
                    completed.add(row.id());
                } else {
                    notCompleted++;
                }
            }
            after = page.getLast().id();
        }
        if (killed == null) {
            return new Audit(duplicates, inserted.countMissingIn(worked), attemptNotOne, notCompleted, 0);
        }
        // A job the killed worker ran to completion ran once; one it was running ran again elsewhere.
        return new Audit(duplicates + attemptNotOne, inserted.countMissingIn(completed), attemptNotOne, notCompleted,
                repeatsOfKilled);
    }

    /** The command line of a worker JVM: everything but the database URL, which goes in its environment. */
    static List<String> workerCommand(Options options, String queue, String warmUpQueue, Path idsFile) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseParallelGC"));
        // Extra worker JVM flags, e.g. to profile one with JDK Flight Recorder.
        String extra = System.getenv("RUNNEL_DRAIN_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.strip().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DrainWorker.class.getName(),
                queue, Integer.toString(options.threads()),
                Long.toString(options.cooldown().toMillis()), idsFile.toString(), Integer.toString(options.warmup()),
                options.delivery().name(), Long.toString(options.jobTime().toMillis()),
                Integer.toString(options.globalLimit()), Integer.toString(options.perKey()), warmUpQueue,
                Boolean.toString(options.deleteCompleted())));
        return command;
    }

    /** One worker JVM and the lines it reports. */
    private static final class Child {
        final Process process;
        String clientId;
        final Path idsFile;
        final AtomicLong progress = new AtomicLong();
        private final BufferedWriter stdin;
        private final List<String> lines = new ArrayList<>();
        private final StringBuilder stderr = new StringBuilder();
        private boolean stdoutClosed; // guarded by lines

        private Child(Process process, Path idsFile) {
            this.process = process;
            this.idsFile = idsFile;
            this.stdin = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            Thread.ofPlatform().daemon().start(this::readStdout);
            Thread.ofPlatform().daemon().start(this::readStderr);
        }

        static Child start(Options options, String queue, String warmUpQueue, Path idsFile) throws IOException {
            ProcessBuilder builder = new ProcessBuilder(workerCommand(options, queue, warmUpQueue, idsFile));
            // The URL may hold a password: through the environment, not the command line that any
            // user of the machine can read in ps.
            builder.environment().put(DrainWorker.URL_VARIABLE, options.url());
            return new Child(builder.start(), idsFile);
        }

        void send(String line) {
            try {
                stdin.write(line);
                stdin.newLine();
                stdin.flush();
            } catch (IOException e) {
                throw new IllegalStateException("a worker JVM stopped listening: " + stderrTail(), e);
            }
        }

        String awaitLine(String prefix, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            synchronized (lines) {
                while (true) {
                    for (String line : lines) {
                        if (line.startsWith(prefix)) {
                            return line;
                        }
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0 || stdoutClosed) {
                        throw new IllegalStateException("a worker JVM did not say '" + prefix + "': " + stderrTail());
                    }
                    lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
        }

        String stderrTail() {
            synchronized (stderr) {
                String s = stderr.toString().strip();
                return s.isEmpty() ? "" : " [worker stderr: " + s.substring(Math.max(0, s.length() - 2_000)) + "]";
            }
        }

        private void readStdout() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("progress ")) {
                        progress.set(Long.parseLong(line.substring(9).strip()));
                        continue;
                    }
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException | NumberFormatException ignored) {
                // the process ended
            } finally {
                synchronized (lines) {
                    stdoutClosed = true;
                    lines.notifyAll();
                }
            }
        }

        private void readStderr() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }
    }
}
