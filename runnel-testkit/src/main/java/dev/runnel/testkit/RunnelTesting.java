package dev.runnel.testkit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.Job;
import dev.runnel.JobArgs;
import dev.runnel.JobCancel;
import dev.runnel.JobContext;
import dev.runnel.JobDiscard;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobSnooze;
import dev.runnel.JobState;
import dev.runnel.Runnel;
import dev.runnel.RunnelBuilder;
import dev.runnel.Worker;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Helpers for testing code that uses Runnel: work a job inline without a database, and assert
 * that code under test inserted a job.
 */
public final class RunnelTesting {
    /** Runnel's default mapper; never changed, so shared. */
    private static final ObjectMapper DEFAULT = RunnelBuilder.defaultObjectMapper();

    private RunnelTesting() {}

    /** Works one job (attempt 1) inline on this thread; see {@link #work(Worker, JobArgs, int)}. */
    public static <T extends JobArgs> InlineResult work(Worker<T> worker, T args) {
        return work(worker, args, 1);
    }

    /**
     * Works one job inline on this thread, as the runtime would: the args make a round trip through
     * JSON first, with Runnel's default mapper, so a type that would not survive storage fails here too.
     */
    public static <T extends JobArgs> InlineResult work(Worker<T> worker, T args, int attempt) {
        return work(DEFAULT, worker, args, attempt);
    }

    /**
     * Works one job inline as {@link #work(Worker, JobArgs, int)} does, its args making their round
     * trip through {@code mapper}: the one given to {@link RunnelBuilder#objectMapper}.
     */
    @SuppressWarnings("unchecked")
    public static <T extends JobArgs> InlineResult work(ObjectMapper mapper, Worker<T> worker, T args, int attempt) {
        T decoded;
        String json;
        try {
            json = mapper.writeValueAsString(args);
            ObjectReader reader = mapper.readerFor(args.getClass()).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
            decoded = (T) reader.readValue(json);
        } catch (Exception e) {
            throw new AssertionError("args of kind " + args.kind() + " do not survive a round trip through JSON: "
                    + e.getMessage(), e);
        }
        Instant now = Instant.now();
        JobRow row = new JobRow(0, args.kind(), json, JobState.RUNNING, "default", 1, attempt, 25, Optional.of(now),
                List.of("inline"), now, now, Optional.empty(), List.of(), "{}", List.of());
        OutputKeeper context = new OutputKeeper();
        try {
            worker.work(new Job<>(row, decoded, context));
            return new InlineResult.Completed(Optional.ofNullable(context.output));
        } catch (JobSnooze s) {
            return new InlineResult.Snoozed(s.duration());
        } catch (JobCancel c) {
            return new InlineResult.Cancelled(c.getMessage());
        } catch (JobDiscard d) {
            return new InlineResult.Discarded(d.getMessage());
        } catch (Throwable t) {
            return new InlineResult.Failed(t);
        }
    }

    /** A context for a job worked inline: never cancelled, no deadline, and it keeps the output. */
    private static final class OutputKeeper implements JobContext {
        private volatile String output;

        @Override
        public Optional<String> cancellation() {
            return Optional.empty();
        }

        @Override
        public Optional<Instant> deadline() {
            return Optional.empty();
        }

        @Override
        public void recordOutput(String json) {
            output = json;
        }
    }

    /**
     * The jobs of {@code kind} waiting to be worked (available or scheduled), failing the test when
     * there is none.
     */
    public static List<JobRow> assertInserted(Runnel runnel, String kind) {
        List<JobRow> found = new ArrayList<>();
        long after = 0;
        while (true) {
            List<JobRow> page = runnel.jobList(JobQuery.inStates(JobState.AVAILABLE, JobState.SCHEDULED)
                    .afterId(after).limit(1_000));
            if (page.isEmpty()) {
                break;
            }
            page.stream().filter(job -> job.kind().equals(kind)).forEach(found::add);
            after = page.getLast().id();
        }
        if (found.isEmpty()) {
            throw new AssertionError("expected a job of kind '" + kind + "' to be inserted, found none");
        }
        return found;
    }
}
