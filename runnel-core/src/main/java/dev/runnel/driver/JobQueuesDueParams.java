package dev.runnel.driver;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Of {@code queues}, which have a job available and due by {@code now}. Internal SPI. */
public record JobQueuesDueParams(List<String> queues, Instant now) {
    public JobQueuesDueParams {
        queues = List.copyOf(queues);
        Objects.requireNonNull(now, "now");
    }
}
