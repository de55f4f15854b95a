package dev.runnel.testkit;

import dev.runnel.JobEvent;
import dev.runnel.JobListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link JobListener} that keeps every event, for tests to wait on and assert. */
public final class EventRecorder implements JobListener {
    private final List<JobEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void onEvent(JobEvent event) {
        events.add(event);
    }

    public List<JobEvent> events() {
        return List.copyOf(events);
    }

    /** The events of job {@code id}, in order. */
    public List<JobEvent> of(long id) {
        return events.stream().filter(e -> e.job().id() == id).toList();
    }

    /** Waits for the {@code n}th event (1-based) of job {@code id} and returns it. */
    public JobEvent await(long id, int n) {
        Await.until(n + " event(s) of job " + id, Await.DEFAULT_TIMEOUT, () -> of(id).size() >= n);
        return of(id).get(n - 1);
    }

    /** Waits for the first event of job {@code id}. */
    public JobEvent await(long id) {
        return await(id, 1);
    }

    /** Waits until {@code count} events in all were recorded. */
    public void awaitCount(int count, Duration timeout) {
        Await.until(count + " events", timeout, () -> events.size() >= count);
    }
}
