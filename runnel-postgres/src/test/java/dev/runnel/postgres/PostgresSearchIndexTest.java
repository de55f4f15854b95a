package dev.runnel.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.Migrator;
import dev.runnel.SearchIndex;
import dev.runnel.SearchIndexes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the conformance suite cannot say of a search index: a build that failed halfway. */
class PostgresSearchIndexTest {
    @RegisterExtension
    final PostgresTestSchema db = new PostgresTestSchema();

    @Test
    void anIndexLeftInvalidByAFailedBuildIsNotListedAndIsBuiltAgain() throws Exception {
        try (PostgresDriver driver = db.newDriver()) {
            new Migrator(driver).up();
            SearchIndexes indexes = new SearchIndexes(driver);
            indexes.create(SearchIndex.KIND);
            // What an interrupted CREATE INDEX CONCURRENTLY leaves behind: the index, marked invalid.
            try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement()) {
                st.execute("UPDATE pg_index SET indisvalid = false WHERE indexrelid = '" + db.current()
                        + ".runnel_job_kind'::regclass");
            }
            assertThat(indexes.present()).isEmpty();
            indexes.create(SearchIndex.KIND);
            assertThat(indexes.present()).isEqualTo(Set.of(SearchIndex.KIND));
            try (Connection c = PostgresTestSchema.admin(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT indisvalid FROM pg_index WHERE indexrelid = '"
                            + db.current() + ".runnel_job_kind'::regclass")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1)).isTrue();
            }
        }
    }
}
