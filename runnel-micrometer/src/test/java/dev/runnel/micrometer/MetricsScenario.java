package dev.runnel.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobDiscard;
import dev.runnel.Runnel;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import dev.runnel.testkit.conformance.DriverConformance;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The meters a client's worked jobs produce, on a real database; a subclass per driver supplies it. */
abstract class MetricsScenario extends DriverConformance {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RunnelMetrics metrics = new RunnelMetrics(registry);
    private final EventRecorder events = new EventRecorder();

    @Override
    protected Connection newConnection(Path dir) throws SQLException {
        throw new UnsupportedOperationException("these tests insert on the client's own connections");
    }

    private double outcomes(String outcome, String state) {
        return registry.get(RunnelMetrics.OUTCOMES).tags("queue", "default", "kind", "test_job", "outcome", outcome,
                "state", state).counter().count();
    }

    private double depth(String state) {
        Gauge gauge = registry.find(RunnelMetrics.JOBS).tags("queue", "default", "state", state).gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    @Test
    void completedRetriedAndDiscardedJobsAreCountedTimedAndGaugedByTheLeader() {
        // Listeners hear an outcome in the order registered: the recorder, last, hears it once the meters did.
        Runnel runnel = started(client().queue("default", 4).listener(metrics).listener(events).runtimeListener(metrics)
                .jobCountInterval(Duration.ofSeconds(1))
                .worker(TestArgs.class, job -> {
                    switch (job.args().value()) {
                        case 1 -> Thread.sleep(20);
                        case 2 -> throw new IllegalStateException("failing, to be retried");
                        default -> throw new JobDiscard("not worth retrying");
                    }
                }));
        // Due five seconds before the (standing) clock: each waits five seconds to be claimed.
        InsertOptions due = InsertOptions.builder().scheduledAt(T0.minusSeconds(5)).build();
        runnel.insertMany(List.of(new InsertRequest(new TestArgs("ok", 1), due),
                new InsertRequest(new TestArgs("retried", 2), due), new InsertRequest(new TestArgs("dropped", 3), due)));
        events.awaitCount(3, Await.DEFAULT_TIMEOUT);

        assertThat(outcomes("completed", "completed")).isEqualTo(1);
        assertThat(outcomes("failed", "retryable")).isEqualTo(1);
        assertThat(outcomes("discarded", "discarded")).isEqualTo(1);

        Timer ran = registry.get(RunnelMetrics.RUN).tags("queue", "default", "kind", "test_job", "outcome", "completed")
                .timer();
        assertThat(ran.count()).isEqualTo(1);
        assertThat(ran.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(20);
        assertThat(registry.get(RunnelMetrics.RUN).tags("outcome", "failed").timer().count()).isEqualTo(1);

        Timer waited = registry.get(RunnelMetrics.WAIT).tags("queue", "default", "kind", "test_job").timer();
        assertThat(waited.count()).isEqualTo(3);
        assertThat(waited.totalTime(TimeUnit.MILLISECONDS)).isCloseTo(15_000, within(100.0));

        assertThat(registry.get(RunnelMetrics.CLAIM).tags("queue", "default").timer().count()).isPositive();
        assertThat(registry.get(RunnelMetrics.CLAIM_SIZE).tags("queue", "default").summary().totalAmount())
                .isEqualTo(3);
        assertThat(registry.get(RunnelMetrics.WRITE).timer().count()).isPositive();
        Await.until("three outcomes written",
                () -> registry.get(RunnelMetrics.WRITE_SIZE).summary().totalAmount() == 3);

        Await.until("the leader's gauges", () -> depth("completed") == 1 && depth("retryable") == 1
                && depth("discarded") == 1);
        assertThat(depth("available")).isZero();
        assertThat(depth("running")).isZero();

        runnel.stop(Duration.ofSeconds(5));
        assertThat(registry.find(RunnelMetrics.JOBS).gauges()).as("a client that no longer leads drops them").isEmpty();
    }

    @Test
    void extraTagsGoOnEveryMeter() {
        RunnelMetrics tagged = new RunnelMetrics(registry, io.micrometer.core.instrument.Tags.of("client", "a"));
        Runnel runnel = started(client().queue("default", 1).listener(tagged).listener(events).runtimeListener(tagged)
                .worker(TestArgs.class, job -> {}));
        long id = runnel.insert(new TestArgs("x", 1)).id();
        events.await(id);
        assertThat(registry.get(RunnelMetrics.OUTCOMES).tag("client", "a").counter().count()).isEqualTo(1);
        assertThat(registry.get(RunnelMetrics.CLAIM).tag("client", "a").timer().count()).isPositive();
    }
}
