package dev.runnel;

/** Thrown by a worker to cancel the job for good, with a reason recorded on the job. */
public final class JobCancel extends JobControl {
    public JobCancel(String reason) {
        super(reason);
    }
}
