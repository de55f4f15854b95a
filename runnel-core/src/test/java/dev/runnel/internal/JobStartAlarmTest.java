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
        Sleeper deadlines = new Sleeper();
        Sleeper cancels = new Sleeper();
        alarm.wakes(deadlines::wakeUp);
        alarm.wakes(cancels::wakeUp);
        assertThat(alarm.armIfIdle(() -> false)).as("nothing runs: sleep").isTrue();
        alarm.jobStarted();
        alarm.jobStarted();
        assertThat(deadlines.woken).hasValue(1);
        assertThat(cancels.woken).hasValue(1);
    }

    @Test
    void whileJobsRunTheAlarmStaysDownAndJobStartsWakeNobody() {
        JobStartAlarm alarm = new JobStartAlarm();
        Sleeper deadlines = new Sleeper();
        alarm.wakes(deadlines::wakeUp);
        assertThat(alarm.armIfIdle(() -> true)).isFalse();
        alarm.jobStarted();
        assertThat(deadlines.woken).hasValue(0);
    }

    @Test
    void aJobAddedBetweenTheTwoLooksKeepsTheWatcherAwake() {
        JobStartAlarm alarm = new JobStartAlarm();
        Sleeper deadlines = new Sleeper();
        alarm.wakes(deadlines::wakeUp);
        AtomicBoolean second = new AtomicBoolean();
        // Nothing at the first look; a job is added before the second: the watcher does not sleep,
        // and the job's start, seeing the alarm raised, wakes it anyway.
        assertThat(alarm.armIfIdle(() -> second.getAndSet(true))).isFalse();
        alarm.jobStarted();
        assertThat(deadlines.woken).hasValue(1);
    }
}
