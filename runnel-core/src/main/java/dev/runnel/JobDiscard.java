package dev.runnel;

/**
 * Thrown by a worker to discard the job for good (it can never succeed), with a reason recorded
 * on the job.
 */
public final class JobDiscard extends JobControl {
    public JobDiscard(String reason) {
        super(reason);
    }
}
