package dev.runnel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobEvent;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.PeriodicJob;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.testkit.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Args as JSON, end to end through the database: Java time types make the round trip with the
 * default mapper, an application's own mapper writes and reads args, and args that cannot be
 * encoded fail the insert, naming the field, before anything is written.
 */
public abstract class JsonConformance extends DriverConformance {
    private final EventRecorder events = new EventRecorder();

    /** Args with the Java time types an application puts in its records. */
    public record Dated(Instant at, LocalDate day, LocalDateTime local, OffsetDateTime offset, Duration delay)
            implements JobArgs {
        @Override
        public String kind() {
            return "dated";
        }
    }

    /** Args whose field names a snake-case mapper writes differently. */
    public record Receipt(long orderId, String customerEmail) implements JobArgs {
        @Override
        public String kind() {
            return "receipt";
        }
    }

    /** Args that no mapper can encode: a field holds an object with no properties. */
    public record Opaque(String name, Object handle) implements JobArgs {
        @Override
        public String kind() {
            return "opaque";
        }
    }

    /** Args with the bad value deep inside: a list's second element. */
    public record Nested(String name, List<Opaque> parts) implements JobArgs {
        @Override
        public String kind() {
            return "nested";
        }
    }

    /** Args with a time field alone, for a mapper without the Java time module. */
    public record When(String name, Instant when) implements JobArgs {
        @Override
        public String kind() {
            return "when";
        }
    }

    private static final Dated DATED = new Dated(Instant.parse("2030-01-02T03:04:05.123456789Z"),
            LocalDate.of(2030, 2, 28), LocalDateTime.of(2030, 3, 4, 5, 6, 7),
            OffsetDateTime.of(2030, 5, 6, 7, 8, 9, 0, ZoneOffset.ofHours(2)), Duration.ofMinutes(90));

    private List<JobRow> all(Runnel runnel) {
        return runnel.jobList(JobQuery.all());
    }

    @Test
    void javaTimeArgsMakeTheRoundTripAsIsoStrings() {
        List<Dated> seen = new CopyOnWriteArrayList<>();
        Runnel runnel = started(client().queue("default", 2).listener(events)
                .worker(Dated.class, job -> seen.add(job.args())));
        long id = runnel.insert(DATED).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(seen).containsExactly(DATED);
        String stored = runnel.jobGet(id).orElseThrow().args();
        assertThat(stored).contains("\"2030-01-02T03:04:05.123456789Z\"", "\"2030-02-28\"", "\"2030-03-04T05:06:07\"",
                "\"2030-05-06T07:08:09+02:00\"", "\"PT1H30M\"");
    }

    @Test
    void javaTimeValuesInMetadataAreIsoStrings() {
        Runnel runnel = inserter();
        long id = runnel.insert(new TestArgs("m", 1), InsertOptions.builder()
                .metadata(Map.of("requested_at", Instant.parse("2030-01-02T03:04:05Z"))).build()).id();
        assertThat(runnel.jobGet(id).orElseThrow().metadata()).contains("\"2030-01-02T03:04:05Z\"");
    }

    @Test
    void theApplicationsMapperWritesAndReadsArgs() {
        ObjectMapper snake = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
        List<Receipt> seen = new CopyOnWriteArrayList<>();
        Runnel runnel = started(client().objectMapper(snake).queue("default", 2).listener(events)
                .worker(Receipt.class, job -> seen.add(job.args())));
        // Changed after build: the client keeps the mapper as it was.
        snake.setPropertyNamingStrategy(PropertyNamingStrategies.UPPER_CAMEL_CASE);
        long id = runnel.insert(new Receipt(42, "a@example.com")).id();
        assertThat(runnel.jobGet(id).orElseThrow().args()).contains("\"order_id\":42", "\"customer_email\"");
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
        assertThat(seen).containsExactly(new Receipt(42, "a@example.com"));
    }

    @Test
    void unknownPropertiesAreIgnoredWhateverTheMapperSays() {
        // A plain ObjectMapper fails on unknown properties by default; the worker must not.
        Runnel runnel = started(client().objectMapper(new ObjectMapper()).queue("default", 2).listener(events)
                .worker("receipt", Receipt.class, job -> {}));
        long id = runnel.insert(new WiderReceipt(7, "b@example.com", "added by a newer version")).id();
        assertThat(events.await(id).type()).isEqualTo(JobEvent.Type.COMPLETED);
    }

    /** What a newer version of the code writes for the kind {@code receipt}: one field more. */
    public record WiderReceipt(long orderId, String customerEmail, String note) implements JobArgs {
        @Override
        public String kind() {
            return "receipt";
        }
    }

    @Test
    void periodicArgsAreWrittenWithTheClientsMapper() {
        ObjectMapper snake = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
        Runnel runnel = client().objectMapper(snake).build();
        runnel.periodic().upsert(PeriodicJob.every("receipts", Duration.ofHours(1), new Receipt(1, "c@example.com")));
        assertThat(runnel.periodic().get("receipts").orElseThrow().args()).contains("\"order_id\":1");
    }

    @Test
    void anArgsFieldThatCannotBeEncodedFailsTheInsertNamingItWithNothingWritten() {
        Runnel runnel = inserter();
        assertThatThrownBy(() -> runnel.insertMany(List.of(InsertRequest.of(new TestArgs("fine", 1)),
                InsertRequest.of(new Opaque("bad", new Object())))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("args of kind opaque cannot be encoded as JSON at field 'handle'");
        assertThatThrownBy(() -> runnel.insert(new Nested("deep", List.of(new Opaque("ok", "text"),
                new Opaque("bad", new Object())))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at field 'parts[1].handle'");
        assertThat(all(runnel)).isEmpty();
    }

    @Test
    void aMapperWithoutJavaTimeSupportNamesTheTimeField() {
        Runnel runnel = client().objectMapper(JsonMapper.builder().build()).build();
        assertThatThrownBy(() -> runnel.insert(new When("w", Instant.EPOCH)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("args of kind when cannot be encoded as JSON at field 'when'");
        assertThat(all(runnel)).isEmpty();
    }

    @Test
    void defaultMappersAreNewEachTime() {
        assertThat(RunnelBuilder.defaultObjectMapper()).isNotSameAs(RunnelBuilder.defaultObjectMapper());
        assertThatThrownBy(() -> client().objectMapper(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("objectMapper");
    }
}
