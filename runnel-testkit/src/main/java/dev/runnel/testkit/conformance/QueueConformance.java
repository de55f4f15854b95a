package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.JobEvent;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.QueueRow;
import dev.runnel.Runnel;
import dev.runnel.RuntimeListener;
import dev.runnel.driver.JobClaimParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Queues: registered by the clients that work them, paused and resumed cluster-wide. */
public abstract class QueueConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();
    private final Claims claims = new Claims();

    /** How many jobs each claim a client made got, in order. */
    private static final class Claims implements RuntimeListener {
        private final List<Integer> claimed = new CopyOnWriteArrayList<>();

        @Override
        public void claimed(String queue, int requested, int claimed, Duration took) {
            this.claimed.add(claimed);
        }

        int made() {
            return claimed.size();
        }

        /** The jobs claimed by the claims after the first {@code claims}. */
        int jobsSince(int claims) {
            return claimed.subList(claims, claimed.size()).stream().mapToInt(Integer::intValue).sum();
        }
    }

    @Test
    void aStartedClientRegistersTheQueuesItWorks() {
        assertThat(inserter().queues().list()).isEmpty();
        Runnel runnel = started(client().queue("mail", 2).queue("billing", 3).worker(TestArgs.class, job -> {}));
        assertThat(runnel.queues().list()).extracting(QueueRow::name).containsExactly("billing", "mail");
        QueueRow mail = runnel.queues().get("mail").orElseThrow();
        assertThat(mail.createdAt()).isEqualTo(T0);
        assertThat(mail.paused()).isFalse();
        assertThat(runnel.queues().get("nobody")).isEmpty();
    }

    @Test
    void aPausedQueueClaimsNothingWhileItsRunningJobFinishesAndResumingWakesIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Runnel runnel = started(client().queue("default", 5).listener(events).runtimeListener(claims)
                // Slow polls: only a claim made after the resume can run the waiting job. Polls
                // even while the client hears notifications: the test counts them.
                .fetchPollInterval(Duration.ofMillis(300))
                .fetchSafetyPollInterval(Duration.ofMillis(300))
                .worker(TestArgs.class, job -> {
                    if (job.args().name().equals("running")) {
                        started.countDown();
                        release.await();
                    }
                }));
        long running = runnel.insert(new TestArgs("running", 1)).id();
        started.await();
        runnel.queues().pause("default");
        assertThat(runnel.queues().get("default").orElseThrow().pausedAt()).contains(T0);
        int before = claims.made();
        long waiting = runnel.insert(new TestArgs("waiting", 2)).id();
        release.countDown();
        assertThat(events.await(running).type()).isEqualTo(JobEvent.Type.COMPLETED);
        int finished = claims.made();
        // The insert's signal, and polls once the running job has finished: all find the queue paused.
        Await.until("two claims after the running job finished", () -> claims.made() >= Math.max(before + 3, finished + 2));
        assertThat(claims.jobsSince(before)).as("jobs claimed from the paused queue").isZero();
        assertThat(runnel.jobGet(waiting).orElseThrow().state()).isEqualTo(JobState.AVAILABLE);
        // Whoever claims, the pause holds: it is in the claim itself.
        assertThat(driver.jobClaim(new JobClaimParams("default", 10, T0, "someone-else"))).isEmpty();
        runnel.queues().resume("default");
        assertThat(events.await(waiting).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(runnel.queues().get("default").orElseThrow().paused()).isFalse();
    }

    @Test
    void aPauseFromAnotherClientHoldsForEveryClientAndSurvivesARestart() {
        Runnel first = started(client().queue("default", 2).worker(TestArgs.class, job -> {}));
        first.stop(Duration.ofSeconds(1));
        // An insert-only client, as an operator's tool would be, pauses the queue.
        inserter().queues().pause("default");
        long id = inserter().insert(new TestArgs("held", 1)).id();
        Runnel second = started(client().queue("default", 2).listener(events).runtimeListener(claims)
                .worker(TestArgs.class, job -> {}));
        int before = claims.made();
        long wake = second.insert(new TestArgs("wake", 2)).id();
        assertThat(second.queues().get("default").orElseThrow().paused()).isTrue();
        Await.until("two claims after the insert", () -> claims.made() >= before + 2);
        assertThat(claims.jobsSince(0)).as("jobs claimed from the paused queue").isZero();
        assertThat(events.of(id)).isEmpty();
        assertThat(events.of(wake)).isEmpty();
        inserter().queues().resume("default");
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
    }

    @Test
    void allQueuesPauseAndResumeTogetherAndOthersAreUntouchedByOne() {
        Runnel runnel = started(client().queue("a", 1).queue("b", 1).queue("c", 1).worker(TestArgs.class, job -> {}));
        assertThat(runnel.queues().pauseAll()).isEqualTo(3);
        assertThat(runnel.queues().list()).allSatisfy(q -> assertThat(q.paused()).isTrue());
        runnel.queues().resume("b");
        assertThat(runnel.queues().list()).extracting(QueueRow::paused).containsExactly(true, false, true);
        // Pausing again keeps the first pause's time.
        clock.advance(Duration.ofMinutes(1));
        runnel.queues().pause("a");
        assertThat(runnel.queues().get("a").orElseThrow().pausedAt()).contains(T0);
        assertThat(runnel.queues().resumeAll()).isEqualTo(3);
        assertThat(runnel.queues().list()).noneMatch(QueueRow::paused);
    }

    @Test
    void pausingOrResumingAQueueThatDoesNotExistSaysSo() {
        Runnel runnel = inserter();
        assertThatThrownBy(() -> runnel.queues().pause("ghost")).isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no queue named ghost");
        assertThatThrownBy(() -> runnel.queues().resume("ghost")).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> runnel.queues().pause("bad\u0000name")).isInstanceOf(IllegalArgumentException.class);
        assertThat(runnel.queues().pauseAll()).isZero();
        runnel.insert(new TestArgs("x", 1), InsertOptions.builder().queue("unworked").build());
        assertThat(runnel.queues().list()).isEmpty();
    }
}
