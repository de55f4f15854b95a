package dev.runnel.testkit.conformance;

import dev.runnel.driver.Driver;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.testkit.Await;
import dev.runnel.testkit.ForwardingDriver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client's driver that notes each completion write once the database has answered it: a test
 * that a write changes nothing, or is not published, waits for the write itself rather than for
 * a while.
 */
final class CompletionWatch extends ForwardingDriver {
    /** Each job whose completion was answered, and whether the last answer wrote it. */
    private final Map<Long, Boolean> answered = new ConcurrentHashMap<>();

    CompletionWatch(Driver delegate) {
        super(delegate);
    }

    @Override
    public long[] jobCompleteMany(JobCompleteManyParams params) {
        long[] written = super.jobCompleteMany(params);
        for (int i = 0; i < params.size(); i++) {
            answered.put(params.ids()[i], false);
        }
        for (long id : written) {
            answered.put(id, true);
        }
        return written;
    }

    /** Waits until a completion write of job {@code id} has come back; returns whether it wrote the job. */
    boolean awaitAnswered(long id) {
        Await.until("the completion write of job " + id, () -> answered.containsKey(id));
        return answered.get(id);
    }
}
