package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.JobRow;
import dev.runnel.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** A producer's slots: the counters, the hand-over to jobs claimed ahead, and its races, step by step and at load. */
class SlotsTest {
    static RunningJob job(long id) {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        return new RunningJob(new JobRow(id, "k", "{}", JobState.RUNNING, "q", 1, 1, 25, Optional.of(now),
                List.of("c"), now, now, Optional.empty(), List.of(), "{}", List.of()));
    }

    @Test
    void aJobAdmittedWithEverySlotTakenWaitsAheadAndRunsOnTheSlotOfTheJobThatEnds() {
        Slots slots = new Slots(2);
        slots.aheadLimit(5);
        RunningJob a = job(1), b = job(2), c = job(3);
        assertThat(slots.admit(a)).isTrue();
        assertThat(slots.admit(b)).isTrue();
        assertThat(slots.admit(c)).as("both slots taken").isFalse();
        assertThat(slots.startWaiting()).as("no slot freed meanwhile").isNull();
        assertThat(slots.held()).isEqualTo(3);
        assertThat(slots.active()).isEqualTo(2);
        assertThat(slots.room()).isEqualTo(2 + 5 - 3);

        slots.release(); // a ended
        assertThat(slots.next()).as("the waiting job takes a's slot").isSameAs(c);
        assertThat(slots.active()).isEqualTo(2);

        slots.release(); // c ended
        assertThat(slots.next()).isNull();
        slots.release(); // b ended
        assertThat(slots.next()).isNull();
        assertThat(slots.active()).isZero();
        assertThat(slots.held()).isZero();
    }

    @Test
    void aJobAddedToWaitJustAfterTheLastRunningJobFoundNoneWaitingIsStartedByTheSlotItFrees() {
        Slots slots = new Slots(1);
        RunningJob a = job(1), c = job(3);
        assertThat(slots.admit(a)).isTrue();

        slots.release(); // a ended ...
        assertThat(slots.ahead().poll()).as("... and finds nobody waiting").isNull();
        assertThat(slots.admit(c)).as("c sees a's slot still taken").isFalse();
        assertThat(slots.freeSlot()).as("a's slot, freed, goes to c at once").isSameAs(c);
        assertThat(slots.startWaiting()).as("so c's adder has nothing to start").isNull();
        assertThat(slots.active()).isEqualTo(1);
    }

    @Test
    void aSlotFreedJustBeforeAJobIsAddedToWaitIsTakenByItsAdder() {
        Slots slots = new Slots(1);
        RunningJob a = job(1), c = job(3);
        assertThat(slots.admit(a)).isTrue();

        assertThat(slots.hold()).as("c finds a's slot taken ...").isFalse();
        slots.release(); // ... a ends
        assertThat(slots.next()).as("and finds nobody waiting yet").isNull();
        slots.ahead().add(c);
        assertThat(slots.active()).as("c would be stranded: no slot is running to take it").isZero();
        assertThat(slots.startWaiting()).as("its adder looks again and starts it").isSameAs(c);
        assertThat(slots.active()).isEqualTo(1);
        assertThat(slots.startWaiting()).isNull();
    }

    @Test
    void aWaiterForRoomIsWokenByTheReleaseThatMakesIt() throws Exception {
        Slots slots = new Slots(4);
        for (int i = 0; i < 4; i++) {
            assertThat(slots.admit(job(i))).isTrue();
        }
        CountDownLatch registered = new CountDownLatch(1);
        AtomicInteger heldWhenWoken = new AtomicInteger(-1);
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                boolean first = true;
                while (!slots.roomOrWake(2)) {
                    if (first) {
                        registered.countDown();
                        first = false;
                    }
                    LockSupport.park();
                }
                heldWhenWoken.set(slots.held());
            } finally {
                slots.noWaiter();
                registered.countDown();
            }
        });
        assertThat(registered.await(10, TimeUnit.SECONDS)).isTrue();
        slots.release();
        slots.release();
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(waiter.isAlive()).as("woken").isFalse();
        assertThat(heldWhenWoken.get()).isEqualTo(2);
    }

    @Test
    void aWaiterForIdleIsWokenByTheLastRelease() throws Exception {
        Slots slots = new Slots(2);
        slots.admit(job(1));
        slots.admit(job(2));
        slots.admit(job(3));
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                while (!slots.idleOrWake()) {
                    LockSupport.park();
                }
            } finally {
                slots.noWaiter();
            }
        });
        for (int i = 0; i < 3; i++) {
            slots.release();
            slots.next();
        }
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(waiter.isAlive()).isFalse();
        assertThat(slots.active()).isZero();
    }

    /**
     * One thread admits jobs, as the producer does, while the jobs' threads end them and take the
     * next waiting, as the launcher's do: every job runs once, never more than the slots at once,
     * and none is left waiting.
     */
    @Test
    void atLoadNeverMoreThanTheSlotsRunAndNoJobIsLeftWaiting() throws Exception {
        int slotsCount = 3;
        int jobs = 20_000;
        Slots slots = new Slots(slotsCount);
        AtomicInteger runningNow = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        ConcurrentHashMap<Long, Integer> runs = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(jobs);
        List<Thread> threads = new ArrayList<>();
        Consumer<RunningJob> start = first -> threads.add(Thread.ofVirtual().start(() -> {
            for (RunningJob j = first; j != null; j = slots.next()) {
                int now = runningNow.incrementAndGet();
                mostAtOnce.accumulateAndGet(now, Math::max);
                runs.merge(j.row.id(), 1, Integer::sum);
                if (j.row.id() % 7 == 0) {
                    Thread.yield();
                }
                runningNow.decrementAndGet();
                slots.release();
                done.countDown();
            }
        }));
        for (long id = 0; id < jobs; id++) {
            RunningJob j = job(id);
            if (slots.admit(j)) {
                start.accept(j);
            } else {
                for (RunningJob next = slots.startWaiting(); next != null; next = slots.startWaiting()) {
                    start.accept(next);
                }
            }
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).as("every job ended; %d still held", slots.held()).isTrue();
        assertThat(runs).hasSize(jobs);
        assertThat(runs.values()).containsOnly(1);
        assertThat(mostAtOnce.get()).isLessThanOrEqualTo(slotsCount);
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertThat(slots.held()).isZero();
        assertThat(slots.active()).isZero();
        assertThat(slots.ahead().isEmpty()).isTrue();
    }
}
