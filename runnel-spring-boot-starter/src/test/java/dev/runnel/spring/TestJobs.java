package dev.runnel.spring;

import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Args and workers of the starter's tests: what each worked is recorded in {@link #WORKED}. */
final class TestJobs {
    static final List<String> WORKED = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch gate = new CountDownLatch(0);

    private TestJobs() {}

    record Ping(String text) implements JobArgs {
        @Override public String kind() { return "ping"; }
    }

    record Pong(String text) implements JobArgs {
        @Override public String kind() { return "pong"; }
    }

    /** Waits at {@link #gate} before it records itself: a job that holds its worker slot. */
    record Gated(String text) implements JobArgs {
        @Override public String kind() { return "gated"; }
    }

    /** Takes {@code millis} to run. */
    record Slow(long millis) implements JobArgs {
        @Override public String kind() { return "slow"; }
    }

    static final class PingWorker implements Worker<Ping> {
        @Override public void work(Job<Ping> job) {
            WORKED.add("ping " + job.args().text());
        }
    }

    /** A worker declared by its class, and one declared by a lambda's {@code @Bean} method. */
    @Configuration(proxyBeanMethods = false)
    static class Workers {
        @Bean PingWorker pingWorker() {
            return new PingWorker();
        }

        @Bean Worker<Pong> pongWorker() {
            return job -> WORKED.add("pong " + job.args().text());
        }

        @Bean Worker<Gated> gatedWorker() {
            return job -> {
                gate.await();
                WORKED.add("gated " + job.args().text());
            };
        }

        @Bean Worker<Slow> slowWorker() {
            return job -> {
                Thread.sleep(Duration.ofMillis(job.args().millis()));
                WORKED.add("slow " + job.args().millis());
            };
        }
    }
}
