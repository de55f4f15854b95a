package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PostgresSchemaTest {

    @Test
    void acceptsIdentifiersFoldedToLowerCaseAndQuotesThem() {
        PostgresSchema schema = PostgresSchema.of("schema", "Jobs_2");
        assertThat(schema.name()).isEqualTo("jobs_2");
        assertThat(schema.quoted()).isEqualTo("\"jobs_2\"");
        assertThat(PostgresSchema.of("schema", "_" + "a".repeat(62)).name()).hasSize(63);
    }

    @Test
    void rejectsAnythingElseNamingTheOption() {
        for (String bad : new String[] {"", "1jobs", "jobs-x", "jobs x", "a\"b", "public; DROP TABLE x", "é",
                "a".repeat(64)}) {
            assertThatThrownBy(() -> PostgresSchema.of("schema", bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("schema must be an SQL identifier");
        }
        assertThatThrownBy(() -> PostgresSchema.of("schema", null)).hasMessageContaining("null");
    }

    @Test
    void channelNamesTheSchemaAndFitsAnIdentifier() {
        assertThat(PostgresSchema.of("schema", "public").channel()).isEqualTo("runnel_insert_public");
        String longA = PostgresSchema.of("schema", "a".repeat(63)).channel();
        String longB = PostgresSchema.of("schema", "a".repeat(62) + "b").channel();
        assertThat(longA).startsWith("runnel_insert_").hasSizeLessThanOrEqualTo(63).isNotEqualTo(longB);
    }

    @Test
    void migrationLockKeyIsStableAndPerSchema() {
        long key = PostgresSchema.of("schema", "public").migrationLockKey();
        assertThat(PostgresSchema.of("schema", "PUBLIC").migrationLockKey()).isEqualTo(key);
        assertThat(PostgresSchema.of("schema", "other").migrationLockKey()).isNotEqualTo(key);
    }
}
