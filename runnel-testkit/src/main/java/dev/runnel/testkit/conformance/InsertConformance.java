package dev.runnel.testkit.conformance;

import dev.runnel.InsertResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Inserting jobs and reading them back. */
public abstract class InsertConformance extends DriverConformance {

    @Test
    void insertedJobReadsBackWithDefaults() {
        Runnel runnel = inserter();
        long id = runnel.insert(new TestArgs("a", 1)).id();
        JobRow job = runnel.jobGet(id).orElseThrow();
        assertThat(job.kind()).isEqualTo("test_job");
        assertThat(job.args()).contains("\"name\":\"a\"").contains("\"value\":1");
        assertThat(job.state()).isEqualTo(JobState.AVAILABLE);
        assertThat(job.queue()).isEqualTo("default");
        assertThat(job.priority()).isEqualTo(1);
        assertThat(job.attempt()).isZero();
        assertThat(job.maxAttempts()).isEqualTo(25);
        assertThat(job.createdAt()).isEqualTo(T0);
        assertThat(job.scheduledAt()).isEqualTo(T0);
        assertThat(job.finalizedAt()).isEmpty();
        assertThat(job.attemptedAt()).isEmpty();
        assertThat(job.errors()).isEmpty();
        assertThat(job.tags()).isEmpty();
        assertThat(runnel.jobGet(id + 1000)).isEmpty();
    }

    @Test
    void optionsAreStored() {
        Runnel runnel = inserter();
        long id = runnel.insert(new TestArgs("b", 2), InsertOptions.builder()
                .queue("emails").priority(4).maxAttempts(3).tags("billing", "eu-west")
                .metadata(Map.of("tenant", "acme")).scheduledAt(T0.plusSeconds(60)).build()).id();
        JobRow job = runnel.jobGet(id).orElseThrow();
        assertThat(job.queue()).isEqualTo("emails");
        assertThat(job.priority()).isEqualTo(4);
        assertThat(job.maxAttempts()).isEqualTo(3);
        assertThat(job.tags()).containsExactly("billing", "eu-west");
        assertThat(job.metadata()).contains("\"tenant\":\"acme\"");
        assertThat(job.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(job.scheduledAt()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void perKindDefaultsApplyAndGivenOptionsWin() {
        Runnel runnel = inserter();
        JobRow defaults = runnel.jobGet(runnel.insert(new UrgentArgs("x")).id()).orElseThrow();
        assertThat(defaults.queue()).isEqualTo("urgent");
        assertThat(defaults.priority()).isEqualTo(3);
        assertThat(defaults.maxAttempts()).isEqualTo(5);
        assertThat(defaults.tags()).containsExactly("urgent");
        JobRow overridden = runnel.jobGet(runnel.insert(new UrgentArgs("y"),
                InsertOptions.builder().priority(2).build()).id()).orElseThrow();
        assertThat(overridden.priority()).isEqualTo(2);
        assertThat(overridden.queue()).isEqualTo("urgent");
    }

    @Test
    void insertManyReturnsIdsInOrder() {
        Runnel runnel = inserter();
        List<InsertRequest> requests = IntStream.range(0, 250)
                .mapToObj(i -> InsertRequest.of(new TestArgs("n" + i, i))).toList();
        long[] ids = InsertResult.ids(runnel.insertMany(requests));
        assertThat(ids).hasSize(250);
        for (int i = 0; i < ids.length; i++) {
            assertThat(runnel.jobGet(ids[i]).orElseThrow().args()).contains("\"value\":" + i + "}");
        }
    }

    @Test
    void insertManyWithMixedOptionsStoresEachJobsOwn() {
        Runnel runnel = inserter();
        long[] ids = InsertResult.ids(runnel.insertMany(List.of(
                InsertRequest.of(new TestArgs("plain", 1)),
                new InsertRequest(new TestArgs("quote\"d", 2), InsertOptions.builder().queue("other").priority(3)
                        .tags("t1", "t-2").metadata(Map.of("k", "v")).build()),
                new InsertRequest(new UrgentArgs("u"), InsertOptions.builder().scheduledAt(T0.plusSeconds(5)).build()))));
        JobRow plain = runnel.jobGet(ids[0]).orElseThrow();
        assertThat(plain.queue()).isEqualTo("default");
        assertThat(plain.tags()).isEmpty();
        JobRow other = runnel.jobGet(ids[1]).orElseThrow();
        assertThat(other.args()).contains("quote\\\"d");
        assertThat(other.queue()).isEqualTo("other");
        assertThat(other.priority()).isEqualTo(3);
        assertThat(other.tags()).containsExactly("t1", "t-2");
        assertThat(other.metadata()).contains("\"k\":\"v\"");
        JobRow urgent = runnel.jobGet(ids[2]).orElseThrow();
        assertThat(urgent.kind()).isEqualTo("urgent_job");
        assertThat(urgent.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(urgent.scheduledAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(urgent.maxAttempts()).isEqualTo(5);
    }

    @Test
    void listFiltersByStateAndQueueAndPages() {
        Runnel runnel = inserter();
        long a = runnel.insert(new TestArgs("a", 1)).id();
        long b = runnel.insert(new TestArgs("b", 2), InsertOptions.builder().queue("other").build()).id();
        long c = runnel.insert(new TestArgs("c", 3), InsertOptions.builder().scheduledAt(T0.plus(Duration.ofHours(1))).build()).id();
        assertThat(ids(runnel.jobList(JobQuery.all()))).containsExactly(a, b, c);
        assertThat(ids(runnel.jobList(JobQuery.inStates(JobState.AVAILABLE)))).containsExactly(a, b);
        assertThat(ids(runnel.jobList(JobQuery.inStates(JobState.SCHEDULED)))).containsExactly(c);
        assertThat(ids(runnel.jobList(JobQuery.all().queue("other")))).containsExactly(b);
        assertThat(ids(runnel.jobList(JobQuery.all().limit(2)))).containsExactly(a, b);
        assertThat(ids(runnel.jobList(JobQuery.all().afterId(b)))).containsExactly(c);
        assertThat(runnel.jobCounts()).anySatisfy(count -> {
            assertThat(count.queue()).isEqualTo("default");
            assertThat(count.state()).isEqualTo(JobState.AVAILABLE);
            assertThat(count.count()).isEqualTo(1);
        });
    }

    @Test
    void invalidOptionsAreRejectedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> InsertOptions.builder().priority(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority");
        assertThatThrownBy(() -> InsertOptions.builder().priority(5)).hasMessageContaining("priority");
        assertThatThrownBy(() -> InsertOptions.builder().maxAttempts(0)).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> InsertOptions.builder().queue(" ")).hasMessageContaining("queue");
        assertThatThrownBy(() -> InsertOptions.builder().queue("q".repeat(129))).hasMessageContaining("queue");
        assertThatThrownBy(() -> InsertOptions.builder().tags("has space")).hasMessageContaining("tags");
        assertThatThrownBy(() -> InsertOptions.builder().tags("ok", "-leading")).hasMessageContaining("tags");

        Runnel runnel = inserter();
        List<InsertRequest> batch = new ArrayList<>();
        batch.add(InsertRequest.of(new TestArgs("fine", 1)));
        batch.add(InsertRequest.of(new dev.runnel.JobArgs() {
            @Override
            public String kind() {
                return "";
            }
        }));
        assertThatThrownBy(() -> runnel.insertMany(batch)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind");
        assertThat(runnel.jobList(JobQuery.all())).isEmpty();
    }

    @Test
    void transactionalInsertExistsOnlyWhenCommitted() throws Exception {
        assumeTransactionalInsert();
        Runnel runnel = inserter();
        long committed;
        long rolledBack;
        try (Connection tx = newConnection(dir)) {
            tx.setAutoCommit(false);
            committed = runnel.insert(tx, new TestArgs("kept", 1)).id();
            tx.commit();
            rolledBack = runnel.insert(tx, new TestArgs("gone", 2)).id();
            long[] more = InsertResult.ids(runnel.insertMany(tx, List.of(InsertRequest.of(new TestArgs("gone too", 3)))));
            assertThat(more).hasSize(1);
            tx.rollback();
        }
        assertThat(runnel.jobGet(committed)).isPresent();
        assertThat(runnel.jobGet(rolledBack)).isEmpty();
        assertThat(ids(runnel.jobList(JobQuery.all()))).containsExactly(committed);
    }

    static List<Long> ids(List<JobRow> rows) {
        return rows.stream().map(JobRow::id).toList();
    }
}
