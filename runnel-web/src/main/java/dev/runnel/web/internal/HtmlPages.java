package dev.runnel.web.internal;

import dev.runnel.AuditRow;
import dev.runnel.JobPage;
import dev.runnel.JobQuery;
import dev.runnel.JobRow;
import dev.runnel.JobState;
import dev.runnel.NotFoundException;
import dev.runnel.Runnel;
import dev.runnel.web.internal.Models.ConfirmView;
import dev.runnel.web.internal.Models.JobsView;
import dev.runnel.web.internal.Models.Tab;
import dev.runnel.web.internal.Operations.JobAction;
import dev.runnel.web.internal.view.JteauditGenerated;
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
        send(req, 200, o -> JtejobGenerated.render(o, null, page, job));
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
            throw new IllegalArgumentException("a page cursor must be a job id, was " + value);
        }
    }

    private static void send(Req req, int status, Consumer<HtmlTemplateOutput> template) throws IOException {
        StringOutput out = new StringOutput();
        template.accept(new OwaspHtmlTemplateOutput(out));
        req.send(status, HTML, out.toString().getBytes(StandardCharsets.UTF_8));
    }
}
