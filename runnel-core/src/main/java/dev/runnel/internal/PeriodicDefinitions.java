package dev.runnel.internal;

import dev.runnel.PeriodicJob;
import dev.runnel.driver.PeriodicUpsertParams;
import dev.runnel.json.PeriodicDigest;
import java.time.Instant;

/** A periodic job's definition as the driver stores it, and the digest that tells one definition from another. */
public final class PeriodicDefinitions {
    private PeriodicDefinitions() {}

    /** What {@link dev.runnel.driver.Driver#periodicUpsert} stores for {@code job}. */
    public static PeriodicUpsertParams upsert(PeriodicJob job, boolean declared, Instant now) {
        return new PeriodicUpsertParams(job.name(), job.kind(), job.args(), job.queue(), job.priority(),
                job.maxAttempts(), job.tags(), job.metadata(), job.schedule().text(), job.schedule().zone().getId(),
                job.catchUp(), job.runOnStart(), hash(job), declared, now);
    }

    /** The digest of {@code job}'s definition, every part but its name: see {@link PeriodicDigest#of}. */
    public static String hash(PeriodicJob job) {
        return PeriodicDigest.of(job.kind(), job.args(), job.queue(), job.priority(), job.maxAttempts(), job.tags(),
                job.metadata(), job.schedule().text(), job.schedule().zone().getId(), job.catchUp().dbName(),
                job.runOnStart());
    }
}
