package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.Runnel;
import dev.runnel.cli.Cli.Result;
import dev.runnel.sqlite.SqliteDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runnel jobs} and {@code runnel queues} on a real SQLite file that a client has worked. */
class JobsAndQueuesCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Task(String name) implements JobArgs {
        @Override
        public String kind() {
            return "task";
        }
    }

    @TempDir
    Path dir;

    private Result run(String... args) {
        return Cli.runOn("sqlite://" + dir.resolve("x.db"), args);
    }

    /** Two jobs completed in queue "default", one waiting in "reports", one failing. */
    private long[] seed() throws Exception {
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("x.db"))).autoMigrate(true)
                .queue("default", 2).worker(Task.class, job -> {
                    if (job.args().name().equals("broken")) {
                        throw new IllegalStateException("it broke");
                    }
                    job.recordOutput(java.util.Map.of("done", job.args().name()));
                }).build()) {
            runnel.start();
            long a = runnel.insert(new Task("a")).id();
            long broken = runnel.insert(new Task("broken")).id();
            long later = runnel.insert(new Task("later"), InsertOptions.builder().queue("reports").build()).id();
            for (int i = 0; i < 200 && runnel.jobGet(broken).orElseThrow().attempt() == 0; i++) {
                Thread.sleep(10);
            }
            runnel.stop(Duration.ofSeconds(5));
            return new long[] {a, broken, later};
        }
    }

    @Test
    void aSearchNoIndexServesSaysWhereToGoOn() throws Exception {
        long sought;
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("x.db"))).autoMigrate(true).build()) {
            sought = runnel.insert(new Task("sought"), InsertOptions.builder().queue("rare").build()).id();
            List<InsertRequest> filler = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                filler.add(InsertRequest.of(new Task("n" + i)));
            }
            runnel.insertMany(filler);
        }
        // No time to spare: one window of ids, then where to go on.
        Result first = run("jobs", "list", "--queue", "rare", "--search-time", "0ms");
        assertThat(first.code()).isZero();
        assertThat(first.out()).contains("(no jobs so far: the search stopped at its time budget; go on with --after ");
        String after = first.out().replaceAll("(?s).*--after (\\d+).*", "$1");
        Result json = run("jobs", "list", "--queue", "rare", "--search-time", "0ms", "--json", "--after", after);
        assertThat(json.err()).contains("a partial page").contains("go on with --after ");
        assertThat(JSON.readTree(run("jobs", "list", "--queue", "rare", "--json").out()))
                .extracting(j -> j.get("id").asLong()).containsExactly(sought);
        assertThat(JSON.readTree(run("jobs", "list", "--queue", "rare", "--search-time", "0ms", "--whole", "--json")
                .out())).extracting(j -> j.get("id").asLong()).containsExactly(sought);
    }

    @Test
    void jobsListFiltersAndPrintsJsonOrATable() throws Exception {
        long[] ids = seed();
        Result json = run("jobs", "list", "--state", "available", "--json");
        assertThat(json.code()).isZero();
        JsonNode available = JSON.readTree(json.out());
        assertThat(available).hasSize(1);
        assertThat(available.get(0).get("id").asLong()).isEqualTo(ids[2]);
        assertThat(available.get(0).get("args").get("name").asText()).isEqualTo("later");
        assertThat(available.get(0).get("queue").asText()).isEqualTo("reports");

        // Newest first, a page at a time, both ways.
        JsonNode page = JSON.readTree(run("jobs", "list", "--queue", "default", "--limit", "1", "--json").out());
        assertThat(page).hasSize(1);
        assertThat(page.get(0).get("id").asLong()).isEqualTo(ids[1]);
        assertThat(page.get(0).get("errors").get(0).get("error").asText()).contains("it broke");
        JsonNode next = JSON.readTree(run("jobs", "list", "--queue", "default", "--limit", "1", "--after",
                String.valueOf(ids[1]), "--json").out());
        assertThat(next).extracting(j -> j.get("id").asLong()).containsExactly(ids[0]);
        JsonNode back = JSON.readTree(run("jobs", "list", "--queue", "default", "--limit", "1", "--before",
                String.valueOf(ids[0]), "--json").out());
        assertThat(back).extracting(j -> j.get("id").asLong()).containsExactly(ids[1]);
        JsonNode oldest = JSON.readTree(run("jobs", "list", "--oldest-first", "--json").out());
        assertThat(oldest).extracting(j -> j.get("id").asLong()).containsExactly(ids[0], ids[1], ids[2]);

        Result table = run("jobs", "list", "--state", "completed,retryable", "--limit", "1");
        assertThat(table.out().lines().findFirst().orElseThrow()).startsWith("ID").contains("STATE");
        assertThat(table.out()).contains("retryable").contains("it broke").doesNotContain("later")
                .contains("the page after: --after " + ids[1]).contains("the page before: --before " + ids[1]);
        assertThat(run("jobs", "list", "--kind", "nothing").out()).contains("(no jobs match)");

        Result whole = run("jobs", "list", "--kind", "nothing", "--whole");
        assertThat(whole.out()).contains("(no jobs match)");

        Result bad = run("jobs", "list", "--state", "lost");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--state").contains("lost");
        for (String[] wrong : new String[][] {{"--args", "[1]"}, {"--args", "{\"a\": {\"b\": 1}}"},
                {"--created-from", "yesterday"}, {"--tag", "no spaces"}, {"--after", "1", "--before", "2"},
                {"--min-id", "5", "--max-id", "4"}, {"--limit", "0"}}) {
            String[] argv = new String[wrong.length + 2];
            argv[0] = "jobs";
            argv[1] = "list";
            System.arraycopy(wrong, 0, argv, 2, wrong.length);
            Result refused = run(argv);
            assertThat(refused.code()).as("%s", String.join(" ", wrong)).isEqualTo(2);
            assertThat(refused.err().lines().count()).isEqualTo(1);
        }
    }

    @Test
    void jobsListFiltersByKindTagArgsIdAndTime() throws Exception {
        long[] ids = seed();
        long tagged;
        try (Runnel runnel = Runnel.builder().driver(SqliteDriver.open(dir.resolve("x.db"))).build()) {
            tagged = runnel.insert(new Task("tagged"), InsertOptions.builder().queue("reports").tags("red", "blue").build()).id();
        }
        assertThat(listed("--tag", "red,blue")).containsExactly(tagged);
        assertThat(listed("--tag", "red", "--tag", "green")).isEmpty();
        assertThat(listed("--args", "{\"name\": \"broken\"}")).containsExactly(ids[1]);
        assertThat(listed("--kind", "task", "--queue", "reports")).containsExactly(tagged, ids[2]);
        assertThat(listed("--min-id", String.valueOf(ids[1]), "--max-id", String.valueOf(ids[2]))).containsExactly(ids[2],
                ids[1]);
        assertThat(listed("--created-before", "2000-01-01T00:00:00Z")).isEmpty();
        assertThat(listed("--created-from", "2000-01-01T00:00:00Z", "--oldest-first")).containsExactly(ids[0], ids[1],
                ids[2], tagged);
    }

    private java.util.List<Long> listed(String... filters) throws Exception {
        String[] argv = new String[filters.length + 3];
        argv[0] = "jobs";
        argv[1] = "list";
        System.arraycopy(filters, 0, argv, 2, filters.length);
        argv[argv.length - 1] = "--json";
        Result result = run(argv);
        assertThat(result.code()).as(result.err()).isZero();
        java.util.List<Long> found = new java.util.ArrayList<>();
        JSON.readTree(result.out()).forEach(j -> found.add(j.get("id").asLong()));
        return found;
    }

    @Test
    void jobsGetShowsAJobAndExitsOneForOneThatDoesNotExist() throws Exception {
        long[] ids = seed();
        Result got = run("jobs", "get", String.valueOf(ids[1]));
        assertThat(got.code()).isZero();
        assertThat(got.out()).contains("job " + ids[1]).contains("it broke").contains("IllegalStateException");
        assertThat(got.out()).doesNotContain("output");
        JsonNode completed = JSON.readTree(run("jobs", "get", String.valueOf(ids[0]), "--json").out());
        assertThat(completed.get("state").asText()).isEqualTo("completed");
        assertThat(completed.get("output")).isEqualTo(JSON.readTree("{\"done\":\"a\"}"));
        assertThat(JSON.readTree(run("jobs", "get", String.valueOf(ids[1]), "--json").out()).get("output").isNull()).isTrue();
        assertThat(run("jobs", "get", String.valueOf(ids[0])).out()).contains("output {\"done\":\"a\"}")
                .contains("metadata {}");
        Result missing = run("jobs", "get", "987654321");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().lines().count()).isEqualTo(1);
        assertThat(missing.err()).contains("no job 987654321");
    }

    @Test
    void queuesPauseListResume() throws Exception {
        seed();
        assertThat(run("queues", "pause", "default").out()).contains("paused default");
        JsonNode queues = JSON.readTree(run("queues", "list", "--json").out());
        assertThat(queues).hasSize(1);
        assertThat(queues.get(0).get("name").asText()).isEqualTo("default");
        assertThat(queues.get(0).get("paused").asBoolean()).isTrue();
        assertThat(queues.get(0).get("jobs").get("completed").asLong()).isEqualTo(1);
        assertThat(run("queues", "list").out()).contains("paused since");
        assertThat(run("queues", "resume", "--all").out()).contains("resumed 1 queues");
        assertThat(JSON.readTree(run("queues", "list", "--json").out()).get(0).get("paused").asBoolean()).isFalse();
        Result missing = run("queues", "pause", "ghost");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("no queue named ghost");
        Result neither = run("queues", "pause");
        assertThat(neither.code()).isEqualTo(2);
    }

    @Test
    void queuesLimitSetsAndLiftsLimitsShownByList() throws Exception {
        seed();
        assertThat(run("queues", "limit", "default", "--global", "3", "--rate", "10/1m").out())
                .contains("default limits: 3 running, 10 per 1m");
        JsonNode queue = JSON.readTree(run("queues", "list", "--json").out()).get(0);
        assertThat(queue.get("global_limit").asInt()).isEqualTo(3);
        assertThat(queue.get("rate_limit").get("jobs").asInt()).isEqualTo(10);
        assertThat(queue.get("rate_limit").get("period").asText()).isEqualTo("PT1M");
        assertThat(run("queues", "list").out()).contains("3 running, 10 per 1m");
        assertThat(run("queues", "limit", "default", "--per-key", "2", "--key", "args.name", "--key-rate", "5/1m").out())
                .contains("default limits: 3 running, 10 per 1m, 2 per args.name (5 per 1m each)");
        assertThat(JSON.readTree(run("queues", "list", "--json").out()).get(0).get("key_limit").get("field").asText())
                .isEqualTo("name");
        assertThat(run("queues", "limit", "default", "--no-global", "--no-rate", "--no-per-key").out())
                .contains("default limits: -");
        assertThat(JSON.readTree(run("queues", "list", "--json").out()).get(0).get("global_limit").isNull()).isTrue();
        for (String[] bad : List.of(new String[] {"--global", "0"}, new String[] {"--rate", "ten/1s"},
                new String[] {"--rate", "5/soon"}, new String[] {"--rate", "0/1s"}, new String[] {},
                new String[] {"--per-key", "2"}, new String[] {"--per-key", "2", "--key", "tenant"},
                new String[] {"--per-key", "0", "--key", "args.tenant"}, new String[] {"--key-rate", "5/1m"})) {
            List<String> args = new java.util.ArrayList<>(List.of("queues", "limit", "default"));
            args.addAll(List.of(bad));
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err().strip().lines().count()).isEqualTo(1);
        }
        assertThat(run("queues", "limit", "ghost", "--global", "2").code()).isEqualTo(1);
    }

    @Test
    void jobsCancelRetryDelete() throws Exception {
        long[] ids = seed();
        assertThat(run("jobs", "cancel", String.valueOf(ids[2])).out()).contains("job " + ids[2] + ": cancelled");
        assertThat(run("jobs", "retry", String.valueOf(ids[2]), String.valueOf(ids[0])).out())
                .contains("job " + ids[2] + ": available").contains("job " + ids[0] + ": available");
        assertThat(run("jobs", "delete", String.valueOf(ids[1])).out()).contains("deleted");
        Result gone = run("jobs", "delete", String.valueOf(ids[1]));
        assertThat(gone.code()).isEqualTo(1);
        assertThat(gone.err()).contains("no job " + ids[1]);
        assertThat(run("jobs", "cancel").code()).isEqualTo(2);
    }

    @Test
    void jobsCancelRetryDeleteByFilterSayHowManyAndRefuseNoFilterWithoutAll() throws Exception {
        long[] ids = seed();
        Result bare = run("jobs", "cancel");
        assertThat(bare.code()).isEqualTo(2);
        assertThat(bare.err()).contains("--all");
        assertThat(run("jobs", "delete", String.valueOf(ids[0]), "--queue", "default").code()).isEqualTo(2);
        assertThat(run("jobs", "cancel", "--state", "available", "--queue", "reports", "--kind", "task").out())
                .isEqualTo("jobs: 1 cancelled\n");
        assertThat(run("jobs", "cancel", "--state", "available").out()).isEqualTo("jobs: 0 cancelled\n");
        assertThat(run("jobs", "retry", "--state", "cancelled,retryable").out()).isEqualTo("jobs: 2 retried\n");
        assertThat(listed("--state", "available")).containsExactly(ids[2], ids[1]);
        assertThat(run("jobs", "delete", "--args", "{\"name\": \"later\"}").out()).isEqualTo("jobs: 1 deleted\n");
        assertThat(run("jobs", "delete", "--all").out()).isEqualTo("jobs: 2 deleted\n");
        assertThat(listed()).isEmpty();
    }
}
