package dev.runnel.web.internal;

import dev.runnel.ClientRow;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.PeriodicRow;
import dev.runnel.QueueRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The values the templates render, one record per page or part of one. */
public final class Models {
    private Models() {}

    /** A state tab of the jobs page. */
    public record Tab(String label, String href, boolean active, String count, String cssClass) {}

    /**
     * The jobs page: its filter's values, tabs, rows, its own link ({@code here}, the filter's first
     * page), the links to confirm a bulk change by its filter (by action) and to the pages either side.
     */
    public record JobsView(List<JobRow> rows, String state, String queue, String kind, String tag, String id,
            String args, List<Tab> tabs, String partialHref, String here, Map<String, String> confirmHrefs,
            Optional<String> newer, Optional<String> older, boolean firstPage, List<String> queues,
            boolean stoppedEarly) {}

    /**
     * The confirmation of a bulk change by filter: the filter's keys and values, the count it will
     * change, and whether it has no filter ({@code every} job).
     */
    public record ConfirmView(String action, Map<String, String> filter, String count, String back,
            boolean every) {}

    /** A queue and its counts by state. */
    public record QueueView(QueueRow row, Map<JobState, Long> counts) {}

    /** A client, whether it is alive or leads, its host and how many jobs it runs now. */
    public record ClientView(ClientRow row, boolean alive, boolean leader, String host, long running) {}

    /** A periodic job and its next run. */
    public record PeriodicView(PeriodicRow row, Optional<Instant> next) {}
}
