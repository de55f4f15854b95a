package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.runnel.InsertOptions;
import dev.runnel.InsertRequest;
import dev.runnel.JobArgs;
import dev.runnel.JobState;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.JobJson;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns insert requests into fully resolved rows: validates every option and encodes the args
 * before anything is written, so a bad request in a batch leaves the batch unwritten.
 */
public final class Inserter {
    private final Clock clock;

    public Inserter(Clock clock) {
        this.clock = clock;
    }

    public List<JobInsertParams> resolve(List<InsertRequest> requests) {
        Instant now = clock.instant();
        List<JobInsertParams> rows = new ArrayList<>(requests.size());
        for (InsertRequest request : requests) {
            rows.add(resolve(request.args(), request.options(), now));
        }
        return rows;
    }

    private static JobInsertParams resolve(JobArgs args, InsertOptions given, Instant now) {
        String kind = InsertOptions.validateKind(args.kind());
        InsertOptions options = given.orElse(args.insertOptions());
        String queue = InsertOptions.validateQueue(options.queue().orElse(InsertOptions.DEFAULT_QUEUE));
        Instant scheduledAt = options.scheduledAt().orElse(now);
        JobState state = scheduledAt.isAfter(now) ? JobState.SCHEDULED : JobState.AVAILABLE;
        String encodedArgs;
        String metadata;
        try {
            encodedArgs = JobJson.MAPPER.writeValueAsString(args);
            metadata = JobJson.MAPPER.writeValueAsString(options.metadata().orElse(Map.of()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args of kind " + kind + " cannot be encoded as JSON: " + e.getOriginalMessage(), e);
        }
        return new JobInsertParams(kind, encodedArgs, queue,
                options.priority().orElse(InsertOptions.DEFAULT_PRIORITY), state, now, scheduledAt,
                options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS),
                options.tags().orElse(List.of()), metadata);
    }
}
