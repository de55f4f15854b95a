package dev.runnel.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobRow;
import dev.runnel.Runnel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Names, args and times of every kind inserted into SQLite and read back: each job is stored
 * exactly as given (times to the microsecond, and after the year 9999 as its last microsecond, as
 * documented), or refused with an {@link IllegalArgumentException} naming what was wrong; never
 * stored changed. A few hundred tries of each, in a few seconds.
 */
class SqliteInsertPropertiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path dir;
    private static Runnel runnel;

    /** Args whose kind is given, so that any string can be tried as a kind. */
    public record Kind(String kind) implements JobArgs {}

    public record Text(String text) implements JobArgs {
        @Override
        public String kind() {
            return "text";
        }
    }

    public record Bag(Map<String, String> entries) implements JobArgs {
        @Override
        public String kind() {
            return "bag";
        }
    }

    @BeforeContainer
    static void open() throws IOException {
        dir = Files.createTempDirectory("runnel-insert-properties");
        runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("jobs.db"))).autoMigrate(true).build();
    }

    @AfterContainer
    static void close() throws IOException {
        runnel.close();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @Property(tries = 300)
    void aKindIsStoredAsGivenOrRefusedNamingTheKind(@ForAll("names") String kind) {
        long id;
        try {
            id = runnel.insert(new Kind(kind)).id();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("kind ");
            assertThat(validName(kind)).as("refused kind %s", escaped(kind)).isFalse();
            return;
        }
        assertThat(validName(kind)).as("stored kind %s", escaped(kind)).isTrue();
        assertThat(row(id).kind()).isEqualTo(kind);
    }

    @Property(tries = 300)
    void aQueueNameIsStoredAsGivenOrRefusedNamingTheQueue(@ForAll("names") String queue) {
        InsertOptions options;
        try {
            options = InsertOptions.builder().queue(queue).build();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("queue ");
            assertThat(validName(queue)).as("refused queue %s", escaped(queue)).isFalse();
            return;
        }
        assertThat(validName(queue)).as("accepted queue %s", escaped(queue)).isTrue();
        assertThat(row(runnel.insert(new Text("q"), options).id()).queue()).isEqualTo(queue);
    }

    @Property(tries = 300)
    void argsAreStoredAsGivenOrRefusedNamingTheString(@ForAll("texts") String text) throws IOException {
        long id;
        try {
            id = runnel.insert(new Text(text)).id();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("args of kind text: the string at /text holds a ");
            assertThat(storable(text)).as("refused %s", escaped(text)).isFalse();
            return;
        }
        assertThat(storable(text)).as("stored %s", escaped(text)).isTrue();
        assertThat(JSON.readValue(row(id).args(), Text.class).text()).isEqualTo(text);
    }

    @Property(tries = 200)
    void fieldNamesAndValuesOfArgsAreStoredAsGivenOrRefused(@ForAll("bags") Map<String, String> entries)
            throws IOException {
        long id;
        try {
            id = runnel.insert(new Bag(entries)).id();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("args of kind bag: ").contains("/entries");
            assertThat(entries.entrySet().stream().allMatch(en -> storable(en.getKey()) && storable(en.getValue())))
                    .as("refused %s", e.getMessage()).isFalse();
            return;
        }
        assertThat(JSON.readValue(row(id).args(), Bag.class).entries()).isEqualTo(entries);
    }

    @Property(tries = 300)
    void aTimeIsStoredToTheMicrosecondClampedAfterTheYear9999OrRefusedBeforeTheYearOne(@ForAll("times") Instant at) {
        InsertOptions options;
        try {
            options = InsertOptions.builder().scheduledAt(at).build();
        } catch (IllegalArgumentException e) {
            assertThat(at).isBefore(InsertOptions.MIN_SCHEDULED_AT);
            assertThat(e.getMessage()).startsWith("scheduledAt ").contains(at.toString());
            return;
        }
        Instant expected = at.isAfter(InsertOptions.MAX_SCHEDULED_AT) ? InsertOptions.MAX_SCHEDULED_AT
                : at.truncatedTo(ChronoUnit.MICROS);
        assertThat(row(runnel.insert(new Text("t"), options).id()).scheduledAt()).isEqualTo(expected);
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(140),
                Arbitraries.strings().alpha().numeric().withChars("_-. /%?é日😀").ofMinLength(1).ofMaxLength(130),
                Arbitraries.of("a", " a", "a ", "\u0000", "a\u0000b", "\uD800", "x\uDC00", "😀", "\uD83D\uDE00x",
                        "q".repeat(128), "q".repeat(129), "tab\there", "\u2028", "\u00a0nbsp"));
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(60),
                Arbitraries.strings().withCharRange('\uD7F0', '\uE010').ofMaxLength(8),
                Arbitraries.strings().ascii().withChars("\\\"\u0000").ofMaxLength(20),
                Arbitraries.of("", "\\u0000", "\\\\u0000", "\uD800", "\uDBFF\uDFFF", "\uDFFF\uDBFF", "😀", "\"quoted\""));
    }

    @Provide
    Arbitrary<Map<String, String>> bags() {
        return Arbitraries.maps(texts(), texts()).ofMaxSize(4);
    }

    @Provide
    Arbitrary<Instant> times() {
        Arbitrary<Instant> anyInstant = Combinators.combine(
                Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
                Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
        Arbitrary<Instant> stored = Combinators.combine(
                Arbitraries.longs().between(InsertOptions.MIN_SCHEDULED_AT.getEpochSecond(),
                        InsertOptions.MAX_SCHEDULED_AT.getEpochSecond()),
                Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
        return Arbitraries.oneOf(anyInstant, stored, Arbitraries.of(Instant.MIN, Instant.MAX, Instant.EPOCH,
                Instant.parse("1960-01-01T00:00:00Z"), InsertOptions.MIN_SCHEDULED_AT,
                InsertOptions.MIN_SCHEDULED_AT.minusNanos(1), InsertOptions.MAX_SCHEDULED_AT,
                InsertOptions.MAX_SCHEDULED_AT.plusNanos(1), Instant.parse("+294247-01-10T04:00:54.775807Z")));
    }

    private static JobRow row(long id) {
        return runnel.jobGet(id).orElseThrow();
    }

    /** A name's rules, said again independently of the code under test. */
    private static boolean validName(String name) {
        return !name.isBlank() && name.length() <= InsertOptions.MAX_NAME_LENGTH && name.strip().equals(name)
                && name.chars().noneMatch(Character::isISOControl) && storable(name);
    }

    /** Whether a string holds neither a lone surrogate nor a NUL. */
    private static boolean storable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.chars().forEach(c -> out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return out.append('"').toString();
    }
}
