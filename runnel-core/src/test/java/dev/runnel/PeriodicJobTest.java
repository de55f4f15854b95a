package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.internal.PeriodicDefinitions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PeriodicJobTest {
    record Report(String format) implements JobArgs {
        @Override
        public String kind() {
            return "report";
        }

        @Override
        public InsertOptions insertOptions() {
            return InsertOptions.builder().queue("reports").priority(3).build();
        }
    }

    @Test
    void aDefinitionTakesItsKindArgsAndDefaultsFromTheArgsAndItsOptionsOverThem() {
        PeriodicJob job = PeriodicJob.cron("nightly", "0 2 * * *", new Report("pdf"));
        assertThat(job.kind()).isEqualTo("report");
        assertThat(job.args()).isEqualTo("{\"format\":\"pdf\"}");
        assertThat(job.queue()).isEqualTo("reports");
        assertThat(job.priority()).isEqualTo(3);
        assertThat(job.maxAttempts()).isEqualTo(InsertOptions.DEFAULT_MAX_ATTEMPTS);
        assertThat(job.catchUp()).isEqualTo(PeriodicJob.CatchUp.SKIP);
        assertThat(job.runOnStart()).isFalse();
        PeriodicJob tuned = job.options(InsertOptions.builder().priority(1).tags("x").build());
        assertThat(tuned.queue()).isEqualTo("reports");
        assertThat(tuned.priority()).isEqualTo(1);
        assertThat(tuned.tags()).containsExactly("x");
        assertThat(job.priority()).isEqualTo(3); // immutable
        assertThat(job.zone(ZoneId.of("Asia/Tokyo")).schedule().zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
        PeriodicJob raw = PeriodicJob.every("ping", Duration.ofSeconds(30), "ping", " { \"target\" : \"db\" } ");
        assertThat(raw.args()).isEqualTo("{\"target\":\"db\"}");
        assertThat(raw.queue()).isEqualTo(InsertOptions.DEFAULT_QUEUE);
        assertThat(PeriodicJob.every("ping", Duration.ofSeconds(30), "ping", "").args()).isEqualTo("{}");
    }

    @Test
    void badDefinitionsAreRejectedNamingWhatIsWrong() {
        Report args = new Report("pdf");
        assertThatThrownBy(() -> PeriodicJob.cron(" x", "* * * * *", args)).hasMessageContaining("periodic job name");
        assertThatThrownBy(() -> PeriodicJob.cron("a\nb", "* * * * *", args)).hasMessageContaining("control");
        assertThatThrownBy(() -> PeriodicJob.cron("x", "* * *", args)).hasMessageContaining("'* * *'");
        assertThatThrownBy(() -> PeriodicJob.every("x", Duration.ofMillis(10), args)).hasMessageContaining("PT0.01S");
        assertThatThrownBy(() -> PeriodicJob.every("x", Duration.ofSeconds(1), "k", "[1]"))
                .hasMessageContaining("args of periodic job x must be a JSON object");
        assertThatThrownBy(() -> PeriodicJob.every("x", Duration.ofSeconds(1), "k", "{oops"))
                .hasMessageContaining("args of periodic job x is not valid JSON");
        assertThatThrownBy(() -> PeriodicJob.every("x", Duration.ofSeconds(1), " ", "{}")).hasMessageContaining("kind");
        PeriodicJob job = PeriodicJob.cron("x", "* * * * *", args);
        assertThatThrownBy(() -> job.options(InsertOptions.builder().scheduledAt(Instant.EPOCH).build()))
                .hasMessageContaining("scheduledAt");
        assertThatThrownBy(() -> job.options(InsertOptions.builder().unique(UniqueOptions.builder().byArgs().build()).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not set unique");
        assertThatThrownBy(() -> job.options(InsertOptions.builder().metadata(Map.of("tick", 1)).build()))
                .hasMessageContaining("'tick'");
        assertThatThrownBy(() -> job.catchUp(null)).hasMessageContaining("catchUp");
        assertThatThrownBy(() -> PeriodicJob.every("x", Duration.ofMinutes(1), args).zone(ZoneId.of("UTC")))
                .hasMessageContaining("interval");
        assertThatThrownBy(() -> PeriodicJob.CatchUp.fromDb("sometimes")).hasMessageContaining("'sometimes'");
    }

    @Test
    void theDigestIgnoresKeyOrderAndChangesWithEveryPartOfTheDefinition() {
        PeriodicJob job = PeriodicJob.every("x", Duration.ofMinutes(1), "k", "{\"a\":1,\"b\":{\"c\":2,\"d\":3}}");
        PeriodicJob reordered = PeriodicJob.every("x", Duration.ofMinutes(1), "k", "{\"b\":{\"d\":3,\"c\":2},\"a\":1}");
        assertThat(PeriodicDefinitions.hash(reordered)).isEqualTo(PeriodicDefinitions.hash(job));
        assertThat(reordered).isEqualTo(job);
        List<PeriodicJob> changed = List.of(
                PeriodicJob.every("x", Duration.ofMinutes(2), "k", job.args()),
                PeriodicJob.cron("x", "* * * * *", "k", job.args()),
                PeriodicJob.every("x", Duration.ofMinutes(1), "other", job.args()),
                PeriodicJob.every("x", Duration.ofMinutes(1), "k", "{\"a\":2}"),
                job.options(InsertOptions.builder().queue("q").build()),
                job.options(InsertOptions.builder().priority(2).build()),
                job.options(InsertOptions.builder().maxAttempts(3).build()),
                job.options(InsertOptions.builder().tags("t").build()),
                job.options(InsertOptions.builder().metadata(Map.of("m", 1)).build()),
                job.catchUp(PeriodicJob.CatchUp.LATEST),
                job.runOnStart(true));
        for (PeriodicJob other : changed) {
            assertThat(PeriodicDefinitions.hash(other)).as(other.toString()).isNotEqualTo(PeriodicDefinitions.hash(job));
        }
        assertThat(PeriodicDefinitions.hash(PeriodicJob.cron("x", "0 9 * * *", "k", "{}").zone(ZoneId.of("Europe/Paris"))))
                .isNotEqualTo(PeriodicDefinitions.hash(PeriodicJob.cron("x", "0 9 * * *", "k", "{}")));
    }

    @Test
    void aStoredRowGivesBackItsDefinitionAndItsNextRun() {
        PeriodicJob job = PeriodicJob.cron("nightly", "0 2 * * *", new Report("pdf"))
                .options(InsertOptions.builder().tags("a").metadata(Map.of("team", "ops")).build());
        Instant t0 = Instant.parse("2030-01-01T00:00:00Z");
        PeriodicRow row = new PeriodicRow("nightly", "report", "{\"format\":\"pdf\"}", "reports", 3, 25, List.of("a"),
                "{\"team\":\"ops\"}", "0 2 * * *", "UTC", PeriodicJob.CatchUp.SKIP, false,
                PeriodicDefinitions.hash(job), true, Optional.empty(), Optional.empty(), t0, t0, t0);
        assertThat(row.definition()).isEqualTo(job);
        assertThat(row.nextRun(t0)).contains(t0.plusSeconds(7200));
        assertThat(row.nextRun(t0.plusSeconds(7200))).contains(t0.plus(Duration.ofHours(26)));
    }

    @Test
    void theBuilderRefusesTheSameNameTwice() {
        PeriodicJob job = PeriodicJob.every("x", Duration.ofMinutes(1), "k", "{}");
        assertThatThrownBy(() -> Runnel.builder().periodic(job).periodic(job.runOnStart(true)))
                .hasMessageContaining("periodic job x is declared twice");
        assertThatThrownBy(() -> Runnel.builder().periodic(null)).hasMessageContaining("periodic job");
    }
}
