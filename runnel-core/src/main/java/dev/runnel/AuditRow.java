package dev.runnel;

import java.time.Instant;

/**
 * One change an operator made, through the dashboard or its API or an application's own tools,
 * as the audit log ({@link Audit}) keeps it.
 *
 * @param id ascends with time
 * @param actor who made it: the user's name
 * @param action what was done, such as {@code job.retry} or {@code queue.pause}
 * @param target what it was done to: a job id, a list of ids, a filter, a queue or periodic job name
 * @param count how many jobs, queues or periodic jobs it changed
 */
public record AuditRow(long id, Instant at, String actor, String action, String target, long count) {}
