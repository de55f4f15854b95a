package dev.runnel.redis;

import dev.runnel.JobArgs;

/** The job of the fault tests: a number, unique per insert, so that a job inserted twice shows. */
record FaultJob(int n) implements JobArgs {
    @Override
    public String kind() {
        return "fault";
    }
}
