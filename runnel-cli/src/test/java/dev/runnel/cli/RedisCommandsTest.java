package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runnel.InsertOptions;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.cli.Cli.Result;
import dev.runnel.redis.RedisDriver;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.LocalRedis;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code runnel jobs}, {@code queues}, {@code periodic list}, {@code demo}, {@code bench} and {@code drain} on a Redis URL. */
class RedisCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Task(String name) implements JobArgs {
        @Override
        public String kind() {
            return "task";
        }
    }

    private String url;

    @BeforeEach
    void namespace() {
        url = LocalRedis.shared().freshUrl();
    }

    private Result run(String... args) {
        return Cli.runOn(url, args);
    }

    /** One job completed in queue "default" and one waiting in "reports". */
    private long[] seed() {
        try (Runnel runnel = Runnel.builder().driver(RedisDriver.open(url)).autoMigrate(true).queue("default", 2)
                .worker(Task.class, job -> {}).build()) {
            runnel.start();
            long done = runnel.insert(new Task("done")).id();
            long later = runnel.insert(new Task("later"), InsertOptions.builder().queue("reports").build()).id();
            Await.until("the job in default to complete", Duration.ofSeconds(20),
                    () -> runnel.jobGet(done).orElseThrow().state() == JobState.COMPLETED);
            runnel.stop(Duration.ofSeconds(5));
            return new long[] {done, later};
        }
    }

    @Test
    void jobsListGetCancelRetryAndDeleteWorkOnRedis() throws Exception {
        long[] ids = seed();
        Result list = run("jobs", "list", "--json");
        assertThat(list.code()).as(list.err()).isZero();
        JsonNode rows = JSON.readTree(list.out());
        assertThat(rows.findValues("id")).extracting(JsonNode::asLong).contains(ids[0], ids[1]);
        Result available = run("jobs", "list", "--state", "available", "--json");
        assertThat(JSON.readTree(available.out()).findValues("id")).extracting(JsonNode::asLong).containsExactly(ids[1]);
        assertThat(run("jobs", "get", String.valueOf(ids[0])).out()).contains("completed").contains("task");
        assertThat(run("jobs", "cancel", String.valueOf(ids[1])).out()).contains("job " + ids[1] + ": cancelled");
        assertThat(run("jobs", "retry", String.valueOf(ids[1])).code()).isZero();
        assertThat(run("jobs", "delete", String.valueOf(ids[0])).code()).isZero();
        Result gone = run("jobs", "get", String.valueOf(ids[0]));
        assertThat(gone.code()).isEqualTo(1);
    }

    @Test
    void queuesListPauseAndResumeWorkOnRedis() {
        seed();
        Result list = run("queues", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("default");
        assertThat(run("queues", "pause", "default").out()).contains("paused default");
        assertThat(run("queues", "list").out()).contains("paused since");
        assertThat(run("queues", "resume", "default").out()).contains("resumed default");
        assertThat(run("queues", "list").out()).doesNotContain("paused since");
    }

    @Test
    void periodicListOnRedisSaysThereAreNone() {
        seed();
        Result list = run("periodic", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("no periodic jobs");
    }

    @Test
    void benchOnRedisIsExactAtLeastOnceAtMostOnceAndInItsBareLoop() {
        for (String mode : new String[] {null, "--at-most-once", "--bare"}) {
            String fresh = LocalRedis.shared().freshUrl();
            Result r = mode == null
                    ? Cli.runOn(fresh, "bench", "--num-total-jobs", "3000", "--json")
                    : Cli.runOn(fresh, "bench", "--num-total-jobs", "3000", mode, "--json");
            assertThat(r.code()).as(mode + ": " + r.err()).isZero();
            assertThat(Cli.lastJson(r)).as(String.valueOf(mode)).contains("\"driver\":\"redis\"")
                    .contains("\"jobs_worked\":3000").contains("\"duplicates\":0").contains("\"missing\":0");
        }
    }

    @Test
    void drainOnRedisAuditsExactlyOnceAndCountsTheServersCommandsAndFunctionCalls() throws Exception {
        Result r = run("drain", "--jobs", "2000", "--processes", "2", "--threads", "10", "--warmup", "200", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = JSON.readTree(Cli.lastJson(r));
        assertThat(json.get("duplicates").asLong()).isZero();
        assertThat(json.get("missing").asLong()).isZero();
        assertThat(json.get("not_completed").asLong()).isZero();
        assertThat(json.get("statements_per_job").asDouble()).isPositive();
        assertThat(json.get("script_calls_per_job").asDouble()).isPositive().isLessThan(json.get("statements_per_job").asDouble());
        assertThat(r.out()).contains("Redis commands/job").contains("function calls/job");
    }

    @Test
    void demoWorksJobsInARedisNamespace() {
        Result demo = run("demo", "--duration", "3s", "--port", "0");
        assertThat(demo.code()).as(demo.err()).isZero();
        assertThat(demo.out()).contains("demo: working jobs in redis://").contains("completed");
    }
}
