package dev.runnel;

/**
 * Thrown by a worker to choose an outcome other than completion or retry. Carries no stack trace:
 * it is control flow, not an error.
 */
public abstract sealed class JobControl extends RuntimeException permits JobSnooze, JobCancel, JobDiscard {
    JobControl(String message) {
        super(message, null, false, false);
    }
}
