package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.Migrator;
import dev.runnel.RunnelException;
import dev.runnel.driver.JobGetManyParams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Why {@code pgbouncer=transaction} is needed: behind PgBouncer in transaction mode, a pooled
 * connection's statements run on whichever server connection is free. pgjdbc, left to itself,
 * names a statement on the server from its fifth execution on ({@code S_1}, counted per client
 * connection), so a second client's {@code S_1} lands on a server connection that already has the
 * first one's. With the option, no statement is named and the same steps succeed.
 */
class PgBouncerOptionTest {
    /** pgjdbc's default prepareThreshold, plus one. */
    private static final int UNTIL_NAMED = 6;

    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void withoutTheOptionASecondClientsNamedStatementCollides() {
        String schema = migrated();
        // One connection each, so that each driver's executions count on one pgjdbc connection;
        // used one after the other, PgBouncer lends both the same, most recently freed server.
        String plain = PgBouncer.get().url(false, "").replace("pgbouncer=transaction", "ApplicationName=plain");
        try (PostgresDriver first = PostgresDriver.builder().url(plain).schema(schema).maxPoolSize(1).build();
                PostgresDriver second = PostgresDriver.builder().url(plain).schema(schema).maxPoolSize(1).build()) {
            for (int i = 0; i < UNTIL_NAMED; i++) {
                first.jobGet(1);
            }
            assertThatThrownBy(() -> {
                for (int i = 0; i < UNTIL_NAMED; i++) {
                    second.jobGetMany(new JobGetManyParams(new long[] {1}));
                }
            }).isInstanceOf(RunnelException.class).hasMessageContaining("prepared statement \"S_1\"");
        }
    }

    @Test
    void withTheOptionTheSameStepsSucceed() {
        String schema = migrated();
        try (PostgresDriver first = PostgresDriver.builder().url(PgBouncer.get().url(false, "")).schema(schema)
                        .maxPoolSize(1).build();
                PostgresDriver second = PostgresDriver.builder().url(PgBouncer.get().url(false, "")).schema(schema)
                        .maxPoolSize(1).build()) {
            for (int i = 0; i < UNTIL_NAMED * 3; i++) {
                assertThat(first.jobGet(1)).isEmpty();
                assertThat(second.jobGetMany(new JobGetManyParams(new long[] {1}))).isEmpty();
            }
        }
    }

    private String migrated() {
        String schema = db.create();
        try (PostgresDriver driver = PgBouncer.get().driver(schema, false)) {
            new Migrator(driver).up();
        }
        return schema;
    }
}
