package dev.runnel.internal;

import java.util.Collection;

/** Operations over the attempts in flight across producers. */
public final class RunningJobs {
    private RunningJobs() {}

    /** Cancels every running attempt because the client is stopping. */
    public static void cancelAll(Collection<Producer> producers, String reason) {
        for (Producer p : producers) {
            for (RunningJob job : p.running()) {
                job.cancel(RunningJob.Cause.STOP, reason);
            }
        }
    }
}
