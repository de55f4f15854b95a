package dev.runnel.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlFileTest {
    enum P implements SqlFile.Param { QUEUE, NOW, MAX, CLIENT_ID }

    enum Two implements SqlFile.Statement {
        Claim(P.QUEUE, P.NOW, P.MAX),
        Stop(P.CLIENT_ID);

        private final List<P> params;

        Two(P... params) {
            this.params = List.of(params);
        }

        @Override
        public List<P> params() {
            return params;
        }
    }

    enum One implements SqlFile.Statement {
        Claim(P.QUEUE, P.NOW);

        private final List<P> params;

        One(P... params) {
            this.params = List.of(params);
        }

        @Override
        public List<P> params() {
            return params;
        }
    }

    enum Pair implements SqlFile.Statement {
        Setting(),
        Claim(P.QUEUE, P.NOW);

        private final List<P> params;

        Pair(P... params) {
            this.params = List.of(params);
        }

        @Override
        public List<P> params() {
            return params;
        }
    }

    enum Returning implements SqlFile.Statement {
        Claim(P.NOW, P.QUEUE, P.CLIENT_ID),
        ClaimIds(P.NOW, P.QUEUE);

        private final List<P> params;

        Returning(P... params) {
            this.params = List.of(params);
        }

        @Override
        public List<P> params() {
            return params;
        }
    }

    private static <S extends Enum<S> & SqlFile.Statement> SqlFile<S> parse(Class<S> statements, String text) {
        return SqlFile.parse("t.sql", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), statements);
    }

    private static String placeholders(String sql, List<String> names) {
        return SqlFile.placeholders("T", sql, names);
    }

    @Test
    void parsesNamedBlocksWithoutCommentLinesAndReplacesTheSchema() {
        SqlFile<Two> f = parse(Two.class, """
                -- header comment
                -- name: Claim
                -- about Claim
                SELECT 1
                FROM {schema}.t WHERE queue = :queue AND at <= :now LIMIT :max;

                -- name: Stop
                UPDATE {schema}.c SET stopped = true WHERE id = :client_id;
                """);
        assertThat(f.get(Two.Claim).text()).isEqualTo("SELECT 1\nFROM {schema}.t WHERE queue = ? AND at <= ? LIMIT ?");
        assertThat(f.withSchema("s1").get(Two.Claim).text()).isEqualTo("SELECT 1\nFROM s1.t WHERE queue = ? AND at <= ? LIMIT ?");
        assertThat(f.withSchema("s1").get(Two.Claim).positions(P.MAX)).containsExactly(3);
        assertThat(f.get(Two.Stop).text()).isEqualTo("UPDATE {schema}.c SET stopped = true WHERE id = ?");
        assertThat(f.get(Two.Stop).positions(P.CLIENT_ID)).containsExactly(1);
    }

    @Test
    void aBlockMadeFromAnotherReplacesItsReturningClauseAndBindsOnlyTheParametersLeft() {
        SqlFile<Returning> f = parse(Returning.class, """
                -- name: Claim
                UPDATE t SET at = :now
                WHERE queue = :queue
                RETURNING id, nullif(holders, :client_id);

                -- name: ClaimIds as Claim
                -- Claim, returning only the ids.
                RETURNING id;
                """);
        assertThat(f.get(Returning.Claim).text()).isEqualTo("UPDATE t SET at = ?\nWHERE queue = ?\nRETURNING id, nullif(holders, ?)");
        Sql ids = f.get(Returning.ClaimIds);
        assertThat(ids.name()).isEqualTo("ClaimIds");
        assertThat(ids.text()).isEqualTo("UPDATE t SET at = ?\nWHERE queue = ?\nRETURNING id");
        assertThat(ids.positions(P.NOW)).containsExactly(1);
        assertThat(ids.positions(P.QUEUE)).containsExactly(2);
    }

    @Test
    void aBlockMadeFromAnotherNeedsThatBlockBeforeItAndAReturningClauseInBoth() {
        assertThatThrownBy(() -> parse(Returning.class, """
                -- name: ClaimIds as Claim
                RETURNING id;
                -- name: Claim
                UPDATE t SET at = :now WHERE queue = :queue
                RETURNING id, :client_id;
                """)).hasMessageContaining("ClaimIds is made from Claim, which no block before it defines");
        assertThatThrownBy(() -> parse(Returning.class, """
                -- name: Claim
                UPDATE t SET at = :now, by = :client_id WHERE queue = :queue;
                -- name: ClaimIds as Claim
                RETURNING id;
                """)).hasMessageContaining("ClaimIds replaces the RETURNING clause of Claim, so both must have one");
        assertThatThrownBy(() -> parse(Returning.class, """
                -- name: Claim
                UPDATE t SET at = :now WHERE queue = :queue
                RETURNING id, :client_id;
                -- name: ClaimIds as Claim
                SELECT 1;
                """)).hasMessageContaining("ClaimIds replaces the RETURNING clause of Claim, so both must have one");
    }

    @Test
    void aNameUsedSeveralTimesIsBoundAtEachOfItsPositions() {
        SqlFile<One> f = parse(One.class, """
                -- name: Claim
                SELECT :queue, :now, :queue, :QUEUE, :now;
                """);
        assertThat(f.get(One.Claim).text()).isEqualTo("SELECT ?, ?, ?, ?, ?");
        assertThat(f.get(One.Claim).positions(P.QUEUE)).containsExactly(1, 3, 4);
        assertThat(f.get(One.Claim).positions(P.NOW)).containsExactly(2, 5);
        assertThatThrownBy(() -> f.get(One.Claim).positions(P.MAX)).hasMessageContaining(":max");
    }

    @Test
    void aStatementSentAfterOneWithoutParametersKeepsItsPositions() {
        SqlFile<Pair> f = parse(Pair.class, """
                -- name: Setting
                SELECT set_config('plan_cache_mode', 'force_generic_plan', true);

                -- name: Claim
                SELECT :now WHERE queue = :queue;
                """);
        Sql claim = f.get(Pair.Claim).after(f.get(Pair.Setting));
        assertThat(claim.text()).isEqualTo("SELECT set_config('plan_cache_mode', 'force_generic_plan', true);\nSELECT ? WHERE queue = ?");
        assertThat(claim.positions(P.QUEUE)).containsExactly(2);
        assertThat(claim.name()).isEqualTo("Claim");
        assertThatThrownBy(() -> f.get(Pair.Setting).after(f.get(Pair.Claim)))
                .hasMessageContaining("Claim binds parameters, so Setting cannot follow it");
    }

    @Test
    void castsAreNotParameters() {
        List<String> names = new ArrayList<>();
        assertThat(placeholders("SELECT :ids::bigint[], x::text, :at::timestamptz", names))
                .isEqualTo("SELECT ?::bigint[], x::text, ?::timestamptz");
        assertThat(names).containsExactly("ids", "at");
    }

    @Test
    void literalsQuotedIdentifiersAndCommentsAreLeftAlone() {
        List<String> names = new ArrayList<>();
        String sql = """
                SELECT ':not_one', 'it''s :still_not ?', "col:name", $$ :nor ? $$, $t$ :this $t$
                FROM t -- a trailing :comment ?
                WHERE /* :block ? */ a = :a AND b[1: n] = :b AND c[1:2] = 0""";
        assertThat(placeholders(sql, names)).isEqualTo(sql.replace(":a AND", "? AND").replace("= :b", "= ?"));
        assertThat(names).containsExactly("a", "b");
    }

    @Test
    void sqliteSyntaxSurvives() {
        List<String> names = new ArrayList<>();
        assertThat(placeholders("SELECT json_extract(j.value, '$.id'), x ->> '$[#-1]' FROM json_each(:batch) AS j", names))
                .isEqualTo("SELECT json_extract(j.value, '$.id'), x ->> '$[#-1]' FROM json_each(?) AS j");
        assertThat(names).containsExactly("batch");
    }

    @Test
    void aPositionalParameterFailsAtLoad() {
        assertThatThrownBy(() -> parse(One.class, "-- name: Claim\nSELECT :queue, :now, ?;\n"))
                .hasMessageContaining("Claim has a positional parameter");
    }

    @Test
    void aNameTheJavaSideDoesNotDeclareFailsAtLoad() {
        assertThatThrownBy(() -> parse(One.class, "-- name: Claim\nSELECT :queue, :now, :max;\n"))
                .hasMessageContaining("Claim's SQL uses [max], not declared");
    }

    @Test
    void aDeclaredNameTheSqlLacksFailsAtLoad() {
        assertThatThrownBy(() -> parse(One.class, "-- name: Claim\nSELECT :queue;\n"))
                .hasMessageContaining("Claim's SQL lacks [now], declared");
    }

    @Test
    void aMissingOrUndeclaredStatementFailsAtLoad() {
        assertThatThrownBy(() -> parse(Two.class, "-- name: Claim\nSELECT :queue, :now, :max;\n"))
                .hasMessageContaining("lacks statements [Stop]");
        assertThatThrownBy(() -> parse(One.class, "-- name: Claim\nSELECT :queue, :now;\n-- name: Extra\nSELECT 1;\n"))
                .hasMessageContaining("has statements [Extra] that One does not declare");
    }

    @Test
    void timesRoundTripAtMicroseconds() {
        Instant t = Instant.parse("2030-01-01T00:00:00.123456789Z");
        assertThat(Times.fromMicros(Times.toMicros(t))).isEqualTo(Instant.parse("2030-01-01T00:00:00.123456Z"));
        Instant before = Instant.parse("1969-12-31T23:59:59.999999Z");
        assertThat(Times.fromMicros(Times.toMicros(before))).isEqualTo(before);
    }
}
