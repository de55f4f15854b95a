package dev.runnel.postgres;

import dev.runnel.JobArgs;

/** The job of the drain tests: it carries nothing but a number, so its work is only what the test adds. */
record DrainJob(int n) implements JobArgs {
    @Override
    public String kind() {
        return "drain";
    }
}
