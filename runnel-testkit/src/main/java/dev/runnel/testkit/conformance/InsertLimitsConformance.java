package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.InsertResult;
import dev.runnel.JobArgs;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.PeriodicJob;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.driver.JobScheduleParams;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an insert stores when its values are at or past the edge of what can be stored: times far
 * in the future or the past, args larger than the client's limit, and text that UTF-8 or Postgres
 * cannot hold. Each is stored exactly, or clamped as documented, or refused with a message naming
 * it before anything of its call is written; never changed in silence. The same on every driver.
 */
public abstract class InsertLimitsConformance extends DriverConformance {
    private static final Instant Y1960 = Instant.parse("1960-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    @Test
    void aFarFutureTimeIsStoredAsTheLatestStorableTimeAndTheJobDoesNotRun() {
        Runnel runnel = inserter();
        long never = insertNamed(runnel, "never", InsertOptions.builder().scheduledAt(Instant.MAX).build());
        long farAway = insertNamed(runnel, "far", InsertOptions.builder()
                .scheduledAt(Instant.parse("+294248-01-01T00:00:00Z")).build());
        for (long id : new long[] {never, farAway}) {
            JobRow row = runnel.jobGet(id).orElseThrow();
            assertThat(row.scheduledAt()).isEqualTo(LATEST).isEqualTo(InsertOptions.MAX_SCHEDULED_AT);
            assertThat(row.state()).isEqualTo(JobState.SCHEDULED);
        }
        clock.advance(Duration.ofDays(365 * 100));
        driver.jobScheduleDue(new JobScheduleParams(clock.instant(), 100));
        assertThat(claimQueue(InsertOptions.DEFAULT_QUEUE, 10)).isEmpty();
        assertThat(runnel.jobGet(never).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
    }

    @Test
    void aTimeBeforeTheYearOneIsRefusedWithItsValueAndNothingIsWritten() {
        assertThatThrownBy(() -> InsertOptions.builder().scheduledAt(Instant.MIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduledAt").hasMessageContaining(Instant.MIN.toString())
                .hasMessageContaining("0001-01-01T00:00:00Z");
        Instant yearZero = Instant.parse("0000-12-31T23:59:59.999999Z");
        assertThatThrownBy(() -> InsertOptions.builder().scheduledAt(yearZero))
                .hasMessageContaining(yearZero.toString());
        assertThat(inserter().jobList(JobQuery.all())).isEmpty();
    }

    @Test
    void aTimeIn1960IsStoredAsGivenAndTheJobIsAvailableFirst() {
        Runnel runnel = inserter();
        long now = insertNamed(runnel, "now", InsertOptions.NONE);
        long old = insertNamed(runnel, "1960", InsertOptions.builder().scheduledAt(Y1960).build());
        JobRow row = runnel.jobGet(old).orElseThrow();
        assertThat(row.scheduledAt()).isEqualTo(Y1960);
        assertThat(row.state()).isEqualTo(JobState.AVAILABLE);
        assertThat(claimQueue(InsertOptions.DEFAULT_QUEUE, 10)).extracting(JobRow::id).containsExactly(old, now);
    }

    @Test
    void timesAcrossTheWholeRangeReadBackToTheMicrosecondInEveryInsertPath() throws Exception {
        List<Instant> times = List.of(EARLIEST, Y1960.plusNanos(1_000), Instant.parse("1969-12-31T23:59:59.999999Z"),
                Instant.parse("2300-06-01T12:00:00.123457Z"), Instant.parse("9999-12-31T23:59:59Z"), LATEST);
        Runnel runnel = inserter();
        List<InsertRequest> batch = times.stream().map(t -> new InsertRequest(new TestArgs("t", 0),
                InsertOptions.builder().scheduledAt(t).build())).toList();
        long[] many = InsertResult.ids(runnel.insertMany(batch));
        long[] single = times.stream().mapToLong(t -> insertNamed(runnel, "one", InsertOptions.builder()
                .scheduledAt(t).build())).toArray();
        List<long[]> paths = new ArrayList<>(List.of(many, single));
        if (driver.supportsTransactionalInsert()) {
            try (Connection tx = newConnection(dir)) {
                tx.setAutoCommit(false);
                paths.add(InsertResult.ids(runnel.insertMany(tx, batch)));
                tx.commit();
            }
        }
        for (long[] ids : paths) {
            for (int i = 0; i < times.size(); i++) {
                assertThat(runnel.jobGet(ids[i]).orElseThrow().scheduledAt()).as("time %s", times.get(i))
                        .isEqualTo(times.get(i));
            }
        }
    }

    @Test
    void argsOverTheLimitAreRefusedNamingTheirKindSizeAndTheLimitAndNothingIsWritten() throws Exception {
        Runnel runnel = client().maxArgsBytes(100).build();
        // {"name":"…","value":0} is 21 bytes around the name; é is two bytes of UTF-8.
        TestArgs fits = new TestArgs("é".repeat(39) + "x", 0);
        TestArgs over = new TestArgs("é".repeat(40), 0);
        assertThat(json(fits)).isEqualTo(100);
        long id = runnel.insert(fits).id();
        assertThat(runnel.jobGet(id).orElseThrow().args()).contains(fits.name());
        assertThatThrownBy(() -> runnel.insert(over)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("args of kind test_job are 101 bytes as JSON")
                .hasMessageContaining("limit of 100").hasMessageContaining("maxArgsBytes");
        assertThatThrownBy(() -> runnel.insertMany(List.of(InsertRequest.of(new TestArgs("small", 1)),
                InsertRequest.of(over)))).hasMessageContaining("101 bytes");
        if (driver.supportsTransactionalInsert()) {
            try (Connection tx = newConnection(dir)) {
                tx.setAutoCommit(false);
                assertThatThrownBy(() -> runnel.insert(tx, over)).hasMessageContaining("101 bytes");
                tx.commit();
            }
        }
        assertThat(runnel.jobList(JobQuery.all())).extracting(JobRow::id).containsExactly(id);
    }

    @Test
    void theDefaultLimitIsOneMebibyteOfJson() {
        assertThat(RunnelBuilder.DEFAULT_MAX_ARGS_BYTES).isEqualTo(1_048_576);
        Runnel runnel = inserter();
        TestArgs fits = new TestArgs("x".repeat(1_048_576 - 21), 0);
        assertThat(json(fits)).isEqualTo(1_048_576);
        long id = runnel.insert(fits).id();
        assertThat(runnel.jobGet(id).orElseThrow().args()).contains(fits.name());
        assertThatThrownBy(() -> runnel.insert(new TestArgs(fits.name() + "x", 0)))
                .hasMessageContaining("1048577 bytes").hasMessageContaining("limit of 1048576");
    }

    @Test
    void aPeriodicJobsArgsAreHeldToTheClientsLimit() {
        PeriodicJob big = PeriodicJob.every("big", Duration.ofMinutes(1), new TestArgs("x".repeat(100), 0));
        assertThatThrownBy(() -> client().maxArgsBytes(100).periodic(big).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("periodic job big").hasMessageContaining("121 bytes")
                .hasMessageContaining("limit of 100");
        Runnel runnel = client().maxArgsBytes(100).build();
        assertThatThrownBy(() -> runnel.periodic().upsert(big)).hasMessageContaining("121 bytes");
        assertThat(runnel.periodic().list()).isEmpty();
        assertThatThrownBy(() -> client().maxArgsBytes(1)).hasMessageContaining("maxArgsBytes");
    }

    @Test
    void aLoneSurrogateInArgsIsRefusedNamingTheStringAndAPairIsStoredExactly() {
        Runnel runnel = inserter();
        assertThatThrownBy(() -> runnel.insert(new TestArgs("cut \uD83D", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("args of kind test_job")
                .hasMessageContaining("the string at /name holds a lone surrogate (U+D83D)");
        assertThatThrownBy(() -> runnel.insertMany(List.of(InsertRequest.of(new TestArgs("fine", 0)),
                InsertRequest.of(new TestArgs("\uDE00", 0))))).hasMessageContaining("U+DE00");
        assertThatThrownBy(() -> runnel.insert(new TestArgs("ok", 0), InsertOptions.builder()
                .metadata(Map.of("note", "x\uD800")).build())).hasMessageContaining("metadata")
                .hasMessageContaining("/note");
        assertThatThrownBy(() -> InsertOptions.builder().queue("q\uD800")).hasMessageContaining("queue")
                .hasMessageContaining("lone surrogate");
        assertThatThrownBy(() -> runnel.insert(new KindArgs("kind\uDFFF"))).hasMessageContaining("kind")
                .hasMessageContaining("lone surrogate");
        assertThat(runnel.jobList(JobQuery.all())).isEmpty();

        String pairs = "smile 😀, clef 𝄞";
        long id = runnel.insert(new TestArgs(pairs, 0), InsertOptions.builder().queue("q😀").build()).id();
        JobRow row = runnel.jobGet(id).orElseThrow();
        assertThat(row.args()).contains(pairs);
        assertThat(row.queue()).isEqualTo("q😀");
    }

    @Test
    void aNulInArgsIsRefusedOnEveryDriver() {
        Runnel runnel = inserter();
        assertThatThrownBy(() -> runnel.insert(new TestArgs("a\u0000b", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the string at /name holds a NUL character");
        long id = runnel.insert(new TestArgs("a\\u0000b", 0)).id();
        assertThat(runnel.jobGet(id).orElseThrow().args()).contains("a\\\\u0000b");
    }

    private static int json(TestArgs args) {
        return ("{\"name\":\"" + args.name() + "\",\"value\":" + args.value() + "}").getBytes(StandardCharsets.UTF_8).length;
    }

    /** Args of a kind given by the test. */
    public record KindArgs(String kind) implements JobArgs {}
}
