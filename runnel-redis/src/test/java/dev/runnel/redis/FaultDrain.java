package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.JobRow;
import dev.runnel.Runnel;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A run for the fault tests: clients working a queue of one namespace while an inserter keeps
 * adding jobs, so that a fault meets claims, completions and inserts in flight. It keeps what each
 * client worked, which inserts were acknowledged, and which batches failed (stored or not,
 * unknown), and checks the end: every acknowledged job completed, no job stored twice, and a job
 * worked twice only when its row shows the second attempt.
 */
final class FaultDrain implements AutoCloseable {
    private static final int BATCH = 20;
    private static final Duration WORK = Duration.ofMillis(3);

    private final String queue;
    private final int slots;
    private final Runnel inserter;
    private final Map<String, FaultWorker> workers = new LinkedHashMap<>();
    private final List<Runnel> clients = new ArrayList<>();
    private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
    private final Set<Integer> unknown = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean inserting = new AtomicBoolean(true);
    private final AtomicInteger failedInserts = new AtomicInteger();
    private final int first;
    private Thread insertLoop;

    /**
     * {@code first} jobs inserted through {@code readerUrl}, then {@code clients} clients of
     * {@code slots} slots on {@code clientUrl}; inserts go on through {@code insertUrl}.
     */
    FaultDrain(String readerUrl, String clientUrl, String insertUrl, String queue, int first, int clients, int slots) {
        this.queue = queue;
        this.slots = slots;
        this.first = first;
        try (Runnel reader = Runnel.builder().driver(RedisDriver.open(readerUrl)).autoMigrate(true).build()) {
            acknowledged.addAll(FaultCheck.insert(reader, queue, 0, first));
        }
        this.inserter = Runnel.builder().driver(RedisDriver.open(insertUrl)).build();
        for (int i = 1; i <= clients; i++) {
            String id = queue + "-" + i;
            FaultWorker worker = new FaultWorker(WORK);
            workers.put(id, worker);
            this.clients.add(Runnel.builder().driver(RedisDriver.open(clientUrl)).queue(queue, slots)
                    .worker(FaultJob.class, worker).clientId(id).fetchPollInterval(Duration.ofMillis(100)).build());
        }
    }

    void start() {
        clients.forEach(Runnel::start);
        insertLoop = Thread.ofVirtual().start(() -> {
            int next = first;
            while (inserting.get()) {
                try {
                    acknowledged.addAll(FaultCheck.insert(inserter, queue, next, BATCH));
                } catch (RuntimeException e) {
                    failedInserts.incrementAndGet();
                    for (int n = next; n < next + BATCH; n++) {
                        unknown.add(n);
                    }
                }
                next += BATCH;
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** How many jobs the clients were handed so far. */
    int worked() {
        return workers.values().stream().mapToInt(FaultWorker::count).sum();
    }

    /**
     * Stops inserting, waits until every job is completed, stops the clients, and checks what
     * the run stored and worked; {@code reader} reads the namespace. Returns a line to print.
     */
    String finishAndCheck(Runnel reader, Duration settle) throws InterruptedException, IOException {
        inserting.set(false);
        insertLoop.join();
        FaultCheck.awaitAllCompleted(reader, acknowledged.size(), settle);
        for (Runnel client : clients) {
            client.close();
        }
        Map<Long, JobRow> stored = FaultCheck.allJobs(reader);
        assertThat(stored.keySet()).as("acknowledged jobs stored").containsAll(acknowledged);
        ObjectMapper json = new ObjectMapper();
        Map<Integer, Long> byNumber = new HashMap<>();
        for (JobRow row : stored.values()) {
            int n = json.readTree(row.args()).get("n").asInt();
            Long earlier = byNumber.put(n, row.id());
            assertThat(earlier).as("job number %d stored twice (ids %s and %d)", n, earlier, row.id()).isNull();
            if (!acknowledged.contains(row.id())) {
                assertThat(unknown).as("job %d stored, though no insert of it failed", row.id()).contains(n);
            }
        }
        Map<String, List<Long>> workedBy = new LinkedHashMap<>();
        workers.forEach((client, worker) -> workedBy.put(client, worker.ids()));
        assertThat(FaultCheck.worked(workedBy)).as("jobs worked").isEqualTo(stored.keySet());
        Map<Long, List<String>> twice = FaultCheck.workedTwice(workedBy);
        // Only a job running when the fault struck may run again, and its row says so.
        assertThat(twice.size()).as("jobs worked twice: %s", twice).isLessThanOrEqualTo(workers.size() * slots);
        twice.forEach((id, by) -> assertThat(stored.get(id).attempt())
                .as("attempts of job %d, worked by %s", id, by).isEqualTo(by.size()));
        return acknowledged.size() + " inserts acknowledged, " + failedInserts.get() + " insert calls failed, "
                + stored.size() + " jobs stored and completed, " + twice.size() + " worked twice";
    }

    @Override
    public void close() {
        inserting.set(false);
        clients.forEach(Runnel::close);
        inserter.close();
    }
}
