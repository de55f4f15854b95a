package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class JobStartAlarmTest {
    /** A ticker that only counts how often it is woken (never started). */
    private static final class Sleeper extends Ticker {
        final AtomicInteger woken = new AtomicInteger();

        Sleeper() {
            super("sleeper", Duration.ofSeconds(1));
        }

        @Override
        protected boolean tick() {
            return false;
        }

        @Override
        public void wakeUp() {
            woken.incrementAndGet();
            super.wakeUp();
        }
    }

    @Test
    void theFirstJobStartAfterAWatcherWentIdleWakesEveryWatcherOnce() {
        JobStartAlarm alarm = new JobStartAlarm();
        Sleeper first = new Sleeper();
        Sleeper second = new Sleeper();
        alarm.wakes(first::wakeUp);
        alarm.wakes(second::wakeUp);
        assertThat(alarm.armIfIdle(() -> false)).as("nothing runs: sleep").isTrue();
        alarm.jobStarted();
        alarm.jobStarted();
        assertThat(first.woken).hasValue(1);
        assertThat(second.woken).hasValue(1);
    }

    @Test
    void whileJobsRunTheAlarmStaysDownAndJobStartsWakeNobody() {
        JobStartAlarm alarm = new JobStartAlarm();
        Sleeper first = new Sleeper();
        alarm.wakes(first::wakeUp);
        assertThat(alarm.armIfIdle(() -> true)).isFalse();
        alarm.jobStarted();
        assertThat(first.woken).hasValue(0);
    }

    @Test
    void aJobAddedBetweenTheTwoLooksKeepsTheWatcherAwake() {
        JobStartAlarm alarm = new JobStartAlarm();
        Sleeper first = new Sleeper();
        alarm.wakes(first::wakeUp);
        AtomicBoolean second = new AtomicBoolean();
        // Nothing at the first look; a job is added before the second: the watcher does not sleep,
        // and the job's start, seeing the alarm raised, wakes it anyway.
        assertThat(alarm.armIfIdle(() -> second.getAndSet(true))).isFalse();
        alarm.jobStarted();
        assertThat(first.woken).hasValue(1);
    }
}
