package dev.runnel.web;

/** What a dashboard user may do. */
public enum WebRole {
    /** Sees every page and the API's reads; changes nothing. */
    READ_ONLY,
    /** Also retries, cancels and deletes jobs, and pauses and resumes queues and periodic jobs. */
    OPERATOR;

    /** Whether this role may change anything. */
    public boolean mayAct() {
        return this == OPERATOR;
    }
}
