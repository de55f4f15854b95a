package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z"); // a Tuesday

    private static List<Instant> ticks(Schedule schedule, Instant from, int n) {
        List<Instant> ticks = new ArrayList<>();
        Instant t = from;
        for (int i = 0; i < n; i++) {
            t = schedule.next(t).orElseThrow();
            ticks.add(t);
        }
        return ticks;
    }

    @Test
    void fiveUnixFieldsFireOnTheMinuteStrictlyAfterTheGivenTime() {
        Schedule every5 = Schedule.cron("*/5 * * * *");
        assertThat(ticks(every5, T0, 3)).containsExactly(T0.plusSeconds(300), T0.plusSeconds(600), T0.plusSeconds(900));
        assertThat(every5.next(T0.plusMillis(1))).contains(T0.plusSeconds(300));
        assertThat(every5.previous(T0)).contains(T0.minusSeconds(300));
        assertThat(every5.previous(T0.plusNanos(1000))).contains(T0);
        assertThat(every5.zone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(every5.interval()).isEmpty();
        // Weekdays by name; Sunday as 0 or 7.
        assertThat(ticks(Schedule.cron("0 9 * * MON-FRI"), T0, 5)).extracting(Instant::toString).containsExactly(
                "2030-01-01T09:00:00Z", "2030-01-02T09:00:00Z", "2030-01-03T09:00:00Z", "2030-01-04T09:00:00Z",
                "2030-01-07T09:00:00Z");
        assertThat(Schedule.cron("0 0 * * 7").next(T0)).isEqualTo(Schedule.cron("0 0 * * 0").next(T0));
    }

    @Test
    void sixFieldsTakeSecondsFirstAndMeanTheSameAsFiveOtherwise() {
        assertThat(ticks(Schedule.cron("*/15 * * * * *"), T0, 3))
                .containsExactly(T0.plusSeconds(15), T0.plusSeconds(30), T0.plusSeconds(45));
        assertThat(ticks(Schedule.cron("0 30 9 * * MON-FRI"), T0, 3))
                .isEqualTo(ticks(Schedule.cron("30 9 * * MON-FRI"), T0, 3));
        // As in Unix cron, with both day fields restricted a day matching either fires.
        assertThat(ticks(Schedule.cron("0 0 0 13 * 5"), T0, 3)).extracting(Instant::toString)
                .containsExactly("2030-01-04T00:00:00Z", "2030-01-11T00:00:00Z", "2030-01-13T00:00:00Z");
    }

    @Test
    void macrosAreFiveFieldShorthands() {
        assertThat(Schedule.cron("@hourly").next(T0)).contains(T0.plusSeconds(3600));
        assertThat(Schedule.cron("@daily").next(T0)).contains(T0.plus(Duration.ofDays(1)));
        assertThat(Schedule.cron("@MIDNIGHT").next(T0)).contains(T0.plus(Duration.ofDays(1)));
        assertThat(Schedule.cron("@weekly").next(T0)).contains(Instant.parse("2030-01-06T00:00:00Z"));
        assertThat(Schedule.cron("@monthly").next(T0)).contains(Instant.parse("2030-02-01T00:00:00Z"));
        assertThat(Schedule.cron("@yearly").next(T0)).isEqualTo(Schedule.cron("@annually").next(T0))
                .contains(Instant.parse("2031-01-01T00:00:00Z"));
        assertThat(Schedule.cron("@hourly").text()).isEqualTo("@hourly");
    }

    @Test
    void cronIsReadInItsZoneAcrossDaylightSavingChanges() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        Schedule daily = Schedule.cron("30 2 * * *", berlin);
        // 2:30 does not exist on 31 March 2030 (clocks go from 2:00 to 3:00): no run that day.
        assertThat(ticks(daily, Instant.parse("2030-03-29T12:00:00Z"), 3)).extracting(Instant::toString)
                .containsExactly("2030-03-30T01:30:00Z", "2030-04-01T00:30:00Z", "2030-04-02T00:30:00Z");
        // 2:30 happens twice on 27 October 2030: one run.
        assertThat(ticks(daily, Instant.parse("2030-10-26T12:00:00Z"), 2)).extracting(Instant::toString)
                .containsExactly("2030-10-27T00:30:00Z", "2030-10-28T01:30:00Z");
        assertThat(Schedule.cron("0 9 * * *").withZone(berlin).next(T0)).contains(Instant.parse("2030-01-01T08:00:00Z"));
        assertThat(Schedule.parse("0 9 * * *", "Europe/Berlin")).isEqualTo(Schedule.cron("0 9 * * *", berlin));
    }

    @Test
    void intervalsTickOnMultiplesOfTheIntervalSinceTheEpochWhoeverComputesThem() {
        Schedule every7 = Schedule.every(Duration.ofSeconds(7));
        Instant tick = every7.next(T0).orElseThrow();
        assertThat(tick.getEpochSecond() % 7).isZero();
        assertThat(tick).isAfter(T0).isBeforeOrEqualTo(T0.plusSeconds(7));
        assertThat(every7.next(tick)).contains(tick.plusSeconds(7));
        assertThat(every7.next(tick.minusNanos(1))).contains(tick);
        assertThat(every7.previous(tick)).contains(tick.minusSeconds(7));
        assertThat(every7.previous(tick.plusNanos(1))).contains(tick);
        assertThat(every7.text()).isEqualTo("@every PT7S");
        assertThat(Schedule.parse("@every PT7S", "UTC")).isEqualTo(every7);
        assertThat(Schedule.every(Duration.ofHours(1)).next(T0.minusSeconds(1))).contains(T0);
        assertThat(every7.interval()).contains(Duration.ofSeconds(7));
    }

    @Test
    void invalidCronExpressionsAreRejectedWithTheExpressionInTheMessage() {
        assertThatThrownBy(() -> Schedule.cron("61 * * * *")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'61 * * * *'");
        assertThatThrownBy(() -> Schedule.cron("* * * *")).hasMessageContaining("'* * * *'")
                .hasMessageContaining("4 fields");
        assertThatThrownBy(() -> Schedule.cron("0 0 0 * * * 2030")).hasMessageContaining("'0 0 0 * * * 2030'");
        assertThatThrownBy(() -> Schedule.cron("every day")).hasMessageContaining("'every day'");
        assertThatThrownBy(() -> Schedule.cron("0 0 31 2 *")).hasMessageContaining("'0 0 31 2 *' never fires");
        assertThatThrownBy(() -> Schedule.cron("@reboot")).hasMessageContaining("'@reboot'")
                .hasMessageContaining("@hourly");
        assertThatThrownBy(() -> Schedule.cron("0 9 * * FUNDAY")).hasMessageContaining("'0 9 * * FUNDAY'");
        assertThatThrownBy(() -> Schedule.cron(" ")).hasMessageContaining("blank");
        assertThatThrownBy(() -> Schedule.cron("* * * * *", null)).hasMessageContaining("zone");
        assertThatThrownBy(() -> Schedule.parse("* * * * *", "Mars/Olympus")).hasMessageContaining("'Mars/Olympus'");
        // 29 February fires, if rarely.
        assertThat(Schedule.cron("0 0 29 2 *").next(T0)).contains(Instant.parse("2032-02-29T00:00:00Z"));
    }

    @Test
    void invalidIntervalsAreRejectedWithTheIntervalInTheMessage() {
        assertThatThrownBy(() -> Schedule.every(Duration.ofMillis(500))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT0.5S");
        assertThatThrownBy(() -> Schedule.every(Duration.ofMillis(1500))).hasMessageContaining("PT1.5S")
                .hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> Schedule.every(Duration.ZERO)).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> Schedule.every(Duration.ofSeconds(-5))).hasMessageContaining("PT-5S");
        assertThatThrownBy(() -> Schedule.every(null)).hasMessageContaining("interval");
        assertThatThrownBy(() -> Schedule.every(Duration.ofSeconds(Long.MAX_VALUE)))
                .hasMessageContaining("PT" + Long.MAX_VALUE / 3600 + "H").hasMessageContaining("never fire");
        Schedule longest = Schedule.every(Schedule.MAX_INTERVAL);
        assertThat(longest.next(T0)).contains(Instant.parse("9999-12-31T23:59:59Z"));
        assertThatThrownBy(() -> Schedule.every(Schedule.MAX_INTERVAL.plusSeconds(1))).hasMessageContaining("at most");
        assertThatThrownBy(() -> Schedule.parse("@every 5 minutes", "UTC")).hasMessageContaining("'5 minutes'");
        assertThatThrownBy(() -> Schedule.every(Duration.ofMinutes(1)).withZone(ZoneId.of("Europe/Berlin")))
                .hasMessageContaining("@every PT1M");
    }
}
