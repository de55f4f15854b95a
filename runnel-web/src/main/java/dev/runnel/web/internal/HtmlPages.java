package dev.runnel.web.internal;

import dev.runnel.AuditRow;
import dev.runnel.BatchRow;
import dev.runnel.JobLinks;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.WorkflowRow;
import dev.runnel.WorkflowTaskRow;
import dev.runnel.web.internal.Models.BatchView;
import dev.runnel.web.internal.Models.BatchesView;
import dev.runnel.web.internal.Models.Callback;
import dev.runnel.web.internal.Models.LinkedJob;
import dev.runnel.web.internal.Models.LinksView;
import dev.runnel.web.internal.Models.WorkflowView;
import dev.runnel.web.internal.Models.WorkflowsView;
import dev.runnel.web.internal.Models.ConfirmView;
import dev.runnel.web.internal.Models.JobsView;
import dev.runnel.web.internal.Models.Tab;
import dev.runnel.web.internal.Operations.JobAction;
import dev.runnel.web.internal.view.JteauditGenerated;
import dev.runnel.web.internal.view.JtebatchGenerated;
import dev.runnel.web.internal.view.JtebatchesGenerated;
import dev.runnel.web.internal.view.JteclientsGenerated;
import dev.runnel.web.internal.view.JteconfirmGenerated;
import dev.runnel.web.internal.view.JteerrorGenerated;
import dev.runnel.web.internal.view.JtejobGenerated;
import dev.runnel.web.internal.view.JtejobsGenerated;
import dev.runnel.web.internal.view.Jtejobs_tableGenerated;
import dev.runnel.web.internal.view.JteoverviewGenerated;
import dev.runnel.web.internal.view.Jteoverview_countsGenerated;
import dev.runnel.web.internal.view.JteperiodicGenerated;
import dev.runnel.web.internal.view.JtequeuesGenerated;
import dev.runnel.web.internal.view.JteworkflowGenerated;
import dev.runnel.web.internal.view.JteworkflowsGenerated;
import gg.jte.html.HtmlTemplateOutput;
import gg.jte.html.OwaspHtmlTemplateOutput;
import gg.jte.output.StringOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/** The HTML pages: each gathers its data through the public API and renders its compiled template. */
final class HtmlPages {
    private static final String HTML = "text/html; charset=utf-8";
    /** Workflows or batches a page lists. */
    static final int LIST_PAGE = 50;
    /**
     * The tasks a workflow's page lists: {@value}. A workflow that fans out to ten thousand tasks
     * still answers with a page of a few hundred kilobytes; the API and the CLI list every task.
     */
    static final int MAX_TASKS_SHOWN = 1_000;
    /** The jobs a job's page lists as waiting for it, or as waited for: {@value} of each, and how many more. */
    static final int MAX_LINKS_SHOWN = 50;

    private final Runnel runnel;
    private final Snapshots data;
    private final Operations ops;

    HtmlPages(Runnel runnel, Snapshots data, Operations ops) {
        this.runnel = runnel;
        this.data = data;
        this.ops = ops;
    }

    void overview(Req req, Page page) throws IOException {
        Views.Counts counts = data.counts();
        send(req, 200, o -> JteoverviewGenerated.render(o, null, page, counts));
    }

    void countsPartial(Req req, Page page) throws IOException {
        Views.Counts counts = data.counts();
        send(req, 200, o -> Jteoverview_countsGenerated.render(o, null, page, counts));
    }

    void jobs(Req req, Page page, boolean partial) throws IOException {
        JobFilter filter = JobFilter.from(req);
        JobQuery query = filter.query();
        Optional<Long> after = req.param("after").map(HtmlPages::cursor);
        Optional<Long> before = req.param("before").map(HtmlPages::cursor);
        if (after.isPresent()) {
            query = query.afterId(after.get());
        } else if (before.isPresent()) {
            query = query.beforeId(before.get());
        }
        JobPage found = ops.search(query);
        boolean first = after.isEmpty() && before.isEmpty();
        if (before.isPresent() && found.more().isEmpty()) {
            // Near the newest end a page before holds fewer than a page: show the first page instead.
            found = ops.search(filter.query());
            first = true;
            before = Optional.empty();
        }
        List<JobRow> rows = found.jobs();
        Views.Counts counts = data.counts();
        List<Tab> tabs = new ArrayList<>();
        tabs.add(new Tab("All", page.href("/jobs") + filter.withState(Optional.empty()).query(Map.of()),
                filter.state().isEmpty(), Views.count(counts.all(), counts.exact()), "st-all"));
        for (JobState s : JobState.values()) {
            tabs.add(new Tab(s.dbName(), page.href("/jobs") + filter.withState(Optional.of(s)).query(Map.of()),
                    filter.state().equals(Optional.of(s)),
                    Views.count(counts.total().get(s), counts.exact() || s != JobState.COMPLETED), "st-" + s.dbName()));
        }
        Operations.Cursors cursors = Operations.Cursors.of(found, after, before);
        Optional<Long> newerThan = first ? Optional.empty() : cursors.newerThan();
        Optional<String> newer = newerThan.map(id -> page.href("/jobs") + filter.query(Map.of("before", Long.toString(id))));
        Optional<String> older = cursors.olderThan().map(id -> page.href("/jobs") + filter.query(Map.of("after", Long.toString(id))));
        Map<String, String> confirm = new LinkedHashMap<>();
        for (JobAction a : JobAction.values()) {
            confirm.put(a.word(), page.href("/jobs/confirm") + filter.query(Map.of("action", a.word())));
        }
        JobsView v = new JobsView(rows, filter.state().map(JobState::dbName).orElse(""), filter.queue().orElse(""),
                filter.kind().orElse(""), filter.tag().orElse(""), filter.id().map(String::valueOf).orElse(""),
                filter.args().orElse(""), tabs, page.href("/partials/jobs") + filter.query(Map.of()),
                page.href("/jobs") + filter.query(Map.of()), confirm, newer, older, first, Views.names(counts.byQueue()),
                found.partial());
        if (partial) {
            send(req, 200, o -> Jtejobs_tableGenerated.render(o, null, page, v));
        } else {
            send(req, 200, o -> JtejobsGenerated.render(o, null, page, v));
        }
    }

    void job(Req req, Page page, long id) throws IOException {
        JobRow job = runnel.jobs().get(id).orElseThrow(() -> new NotFoundException("no job " + id
                + " (never inserted, deleted, or succeeded in an at-most-once queue)"));
        Optional<LinksView> links = runnel.jobs().links(id).map(this::links);
        send(req, 200, o -> JtejobGenerated.render(o, null, page, job, links));
    }

    /**
     * A job's ties as its page shows them: the jobs it waits for and that wait for it named by
     * their task when they are tasks of its workflow (one read of the workflow's tasks), else
     * read one by one (a sequence's neighbours: one each way), at most {@link #MAX_LINKS_SHOWN}.
     */
    private LinksView links(JobLinks l) {
        Map<Long, WorkflowTaskRow> tasks = new java.util.HashMap<>();
        Optional<String> workflowName = Optional.empty();
        if (l.workflowId().isPresent()) {
            workflowName = runnel.workflows().get(l.workflowId().get()).map(WorkflowRow::name);
            runnel.workflows().tasks(l.workflowId().get()).forEach(t -> tasks.put(t.jobId(), t));
        }
        Optional<String> batchName = l.batchId().flatMap(b -> runnel.batches().get(b)).flatMap(BatchRow::name);
        List<LinkedJob> waitsFor = linked(l.waitsFor(), tasks);
        List<LinkedJob> waitedOnBy = linked(l.waitedOnBy(), tasks);
        return new LinksView(l.workflowId(), workflowName, l.task(), l.batchId(), batchName, l.sequenceKey(), waitsFor,
                l.waitsFor().size() - waitsFor.size(), waitedOnBy, l.waitedOnBy().size() - waitedOnBy.size());
    }

    private List<LinkedJob> linked(List<Long> ids, Map<Long, WorkflowTaskRow> tasks) {
        List<LinkedJob> jobs = new ArrayList<>();
        for (long id : ids.subList(0, Math.min(ids.size(), MAX_LINKS_SHOWN))) {
            WorkflowTaskRow task = tasks.get(id);
            if (task != null) {
                jobs.add(new LinkedJob(id, task.name(), task.state()));
            } else {
                Optional<JobRow> row = runnel.jobs().get(id);
                jobs.add(new LinkedJob(id, row.map(JobRow::kind).orElse(""), row.map(JobRow::state)));
            }
        }
        return jobs;
    }

    void workflows(Req req, Page page) throws IOException {
        long before = req.param("before").map(HtmlPages::cursor).orElse(0L);
        List<WorkflowRow> rows = before == 0 ? runnel.workflows().list(LIST_PAGE)
                : runnel.workflows().list(LIST_PAGE, before);
        Optional<String> older = rows.size() < LIST_PAGE ? Optional.empty()
                : Optional.of(page.href("/workflows" + Urls.query("before", Long.toString(rows.getLast().id()))));
        WorkflowsView v = new WorkflowsView(rows, older, before == 0);
        send(req, 200, o -> JteworkflowsGenerated.render(o, null, page, v));
    }

    void workflow(Req req, Page page, long id) throws IOException {
        WorkflowRow row = runnel.workflows().get(id).orElseThrow(() -> new NotFoundException("no workflow " + id));
        List<WorkflowTaskRow> tasks = runnel.workflows().tasks(id);
        Optional<WorkflowGraph> graph = tasks.size() > WorkflowGraph.MAX_DRAWN ? Optional.empty()
                : Optional.of(WorkflowGraph.of(tasks, job -> page.href(Urls.path("jobs", job))));
        List<WorkflowTaskRow> shown = tasks.subList(0, Math.min(tasks.size(), MAX_TASKS_SHOWN));
        WorkflowView v = new WorkflowView(row, shown, tasks.size() - shown.size(), graph);
        send(req, 200, o -> JteworkflowGenerated.render(o, null, page, v));
    }

    void batches(Req req, Page page) throws IOException {
        long before = req.param("before").map(HtmlPages::cursor).orElse(0L);
        List<BatchRow> rows = before == 0 ? runnel.batches().list(LIST_PAGE) : runnel.batches().list(LIST_PAGE, before);
        Optional<String> older = rows.size() < LIST_PAGE ? Optional.empty()
                : Optional.of(page.href("/batches" + Urls.query("before", Long.toString(rows.getLast().id()))));
        BatchesView v = new BatchesView(rows, older, before == 0);
        send(req, 200, o -> JtebatchesGenerated.render(o, null, page, v));
    }

    void batch(Req req, Page page, long id) throws IOException {
        BatchRow row = runnel.batches().get(id).orElseThrow(() -> new NotFoundException("no batch " + id));
        List<Callback> callbacks = new ArrayList<>();
        row.successJob().ifPresent(job -> callbacks.add(callback("success", "every job completed", job)));
        row.completeJob().ifPresent(job -> callbacks.add(callback("complete", "every job finished", job)));
        row.discardJob().ifPresent(job -> callbacks.add(callback("discard", "a job was discarded", job)));
        BatchView v = new BatchView(row, callbacks);
        send(req, 200, o -> JtebatchGenerated.render(o, null, page, v));
    }

    private Callback callback(String which, String when, long job) {
        return new Callback(which, when, job, runnel.jobs().get(job).map(JobRow::state));
    }

    /**
     * The confirmation of a bulk change by filter: each key and value of the filter, or that there
     * is none and so every job is meant, and how many jobs it matches now. A parameter that is not
     * a filter key is refused, so that the page never shows a wider change than was asked for.
     */
    void confirm(Req req, Page page) throws IOException {
        JobAction action = JobAction.parse(req.param("action").orElse(""));
        JobFilter filter = JobFilter.strict(req, Set.of("action"));
        Operations.Matches m = ops.count(filter);
        String back = page.href("/jobs") + filter.query(Map.of());
        ConfirmView v = new ConfirmView(action.word(), filter.params(),
                (m.atLeast() ? "at least " : "") + Views.count(m.count(), true), back, filter.isEmpty());
        send(req, 200, o -> JteconfirmGenerated.render(o, null, page, v));
    }

    void queues(Req req, Page page) throws IOException {
        var queues = data.queues();
        send(req, 200, o -> JtequeuesGenerated.render(o, null, page, queues));
    }

    void clients(Req req, Page page) throws IOException {
        var clients = data.clients();
        send(req, 200, o -> JteclientsGenerated.render(o, null, page, clients));
    }

    void periodic(Req req, Page page) throws IOException {
        var jobs = data.periodic();
        send(req, 200, o -> JteperiodicGenerated.render(o, null, page, jobs));
    }

    void audit(Req req, Page page) throws IOException {
        long before = req.param("before").map(HtmlPages::cursor).orElse(0L);
        List<AuditRow> rows = ops.audit(before, 100);
        Optional<String> older = rows.size() < 100 ? Optional.empty()
                : Optional.of(page.href("/audit" + Urls.query("before", Long.toString(rows.getLast().id()))));
        send(req, 200, o -> JteauditGenerated.render(o, null, page, rows, older));
    }

    void error(Req req, Page page, int status, String message) throws IOException {
        send(req, status, o -> JteerrorGenerated.render(o, null, page, status, message));
    }

    private static long cursor(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a page cursor must be an id, was " + value);
        }
    }

    private static void send(Req req, int status, Consumer<HtmlTemplateOutput> template) throws IOException {
        StringOutput out = new StringOutput();
        template.accept(new OwaspHtmlTemplateOutput(out));
        req.send(status, HTML, out.toString().getBytes(StandardCharsets.UTF_8));
    }
}
