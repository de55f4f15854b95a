package dev.runnel.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.DependencyPolicy;
import dev.runnel.JobState;
import dev.runnel.WorkflowTaskRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The layout of a workflow's graph: layers, the order within each, the arrows. */
class WorkflowGraphTest {
    private long nextId = 100;

    private WorkflowTaskRow task(String name, JobState state, String... after) {
        return new WorkflowTaskRow(name, nextId++, "k", Optional.ofNullable(state), List.of(after), DependencyPolicy.CANCEL,
                Optional.empty());
    }

    private static WorkflowGraph graph(List<WorkflowTaskRow> tasks) {
        return WorkflowGraph.of(tasks, id -> "/jobs/" + id);
    }

    private static Map<String, WorkflowGraph.Node> byName(WorkflowGraph g) {
        return g.nodes().stream().collect(Collectors.toMap(WorkflowGraph.Node::name, n -> n));
    }

    @Test
    void eachTaskSitsOneLayerRightOfTheFurthestTaskItRunsAfter() {
        // Inserted out of order: a task may name one added after it.
        WorkflowGraph g = graph(List.of(task("notify", JobState.PENDING, "resize", "scan"),
                task("fetch", JobState.COMPLETED), task("resize", JobState.RUNNING, "fetch"),
                task("scan", JobState.AVAILABLE, "fetch"), task("late", JobState.PENDING, "fetch", "notify")));
        Map<String, WorkflowGraph.Node> n = byName(g);
        assertThat(n.get("fetch").layer()).isZero();
        assertThat(n.get("resize").layer()).isEqualTo(1);
        assertThat(n.get("scan").layer()).isEqualTo(1);
        assertThat(n.get("notify").layer()).isEqualTo(2);
        assertThat(n.get("late").layer()).isEqualTo(3);
        assertThat(g.layers()).extracting(List::size).containsExactly(1, 2, 1, 1);
        assertThat(n.get("resize").x()).isEqualTo(n.get("scan").x()).isGreaterThan(n.get("fetch").x());
        assertThat(n.get("resize").y()).isNotEqualTo(n.get("scan").y());
        assertThat(g.width()).isEqualTo(2 * WorkflowGraph.PAD + 4 * WorkflowGraph.NODE_WIDTH + 3 * WorkflowGraph.GAP_X);
        // fetch's arrow to late crosses two layers, through a slot of its own in each: the middle
        // layer is three tall.
        assertThat(g.height()).isEqualTo(2 * WorkflowGraph.PAD + 3 * WorkflowGraph.NODE_HEIGHT + 2 * WorkflowGraph.GAP_Y);
        WorkflowGraph.Edge skip = g.edges().stream().filter(x -> x.from().equals("fetch") && x.to().equals("late"))
                .findFirst().orElseThrow();
        assertThat(skip.path().split(" L")).as(skip.path()).hasSize(3);
        for (WorkflowGraph.Node node : List.of(n.get("resize"), n.get("scan"))) {
            assertThat(skip.path()).as("no waypoint in a box").doesNotContain(" L" + (node.x() + WorkflowGraph.NODE_WIDTH)
                    + " " + (node.y() + WorkflowGraph.NODE_HEIGHT / 2));
        }
        for (WorkflowGraph.Node node : g.nodes()) {
            assertThat(node.x() + WorkflowGraph.NODE_WIDTH).isLessThanOrEqualTo(g.width());
            assertThat(node.y() + WorkflowGraph.NODE_HEIGHT).isLessThanOrEqualTo(g.height());
        }
        // One arrow a dependency, marked done when it leaves a completed task.
        assertThat(g.edges()).extracting(e -> e.from() + ">" + e.to()).containsExactlyInAnyOrder("resize>notify",
                "scan>notify", "fetch>resize", "fetch>scan", "fetch>late", "notify>late");
        assertThat(g.edges()).filteredOn(WorkflowGraph.Edge::done).extracting(WorkflowGraph.Edge::from)
                .containsOnly("fetch");
        WorkflowGraph.Edge e = g.edges().stream().filter(x -> x.from().equals("fetch") && x.to().equals("resize"))
                .findFirst().orElseThrow();
        assertThat(e.path()).startsWith("M" + (n.get("fetch").x() + WorkflowGraph.NODE_WIDTH) + " ");
    }

    @Test
    void aLayerIsOrderedByWhereTheTasksItRunsAfterSitSoThatArrowsCrossLess() {
        // b2 runs after a2 and b1 after a1: drawn in that order, whatever the insert order.
        WorkflowGraph g = graph(List.of(task("a1", JobState.COMPLETED), task("a2", JobState.COMPLETED),
                task("b2", JobState.PENDING, "a2"), task("b1", JobState.PENDING, "a1")));
        Map<String, WorkflowGraph.Node> n = byName(g);
        assertThat(n.get("b1").y()).isLessThan(n.get("b2").y());
        assertThat(g.layers().get(1)).extracting(WorkflowGraph.Node::name).containsExactly("b1", "b2");
    }

    @Test
    void aDeletedTaskHasNoLinkAndALongNameIsCut() {
        WorkflowGraph g = graph(List.of(task("a-task-with-a-rather-long-name-indeed", null),
                task("b", JobState.DISCARDED, "a-task-with-a-rather-long-name-indeed")));
        Map<String, WorkflowGraph.Node> n = byName(g);
        WorkflowGraph.Node a = n.get("a-task-with-a-rather-long-name-indeed");
        assertThat(a.href()).isEmpty();
        assertThat(a.state()).isEqualTo("deleted");
        assertThat(a.stateClass()).isEqualTo("node st-deleted");
        assertThat(a.label()).hasSize(WorkflowGraph.LABEL_CHARS).endsWith("…").startsWith("a-task-with");
        assertThat(n.get("b").href()).contains("/jobs/" + n.get("b").jobId());
        assertThat(n.get("b").label()).isEqualTo("b");
        assertThat(WorkflowGraph.label("😀".repeat(30))).startsWith("😀").endsWith("…")
                .hasSize(2 * (WorkflowGraph.LABEL_CHARS - 1) + 1);
    }

    @Test
    void aCycleInStoredRowsIsDrawnAllTheSame() {
        // A stored workflow has none; rows damaged by hand must not hang the page.
        WorkflowGraph g = graph(List.of(task("a", JobState.PENDING, "b"), task("b", JobState.PENDING, "a")));
        assertThat(g.nodes()).hasSize(2);
        assertThat(g.edges()).hasSize(2);
    }

    @Test
    void aWideFanOutIsOneTallLayerWithItsFanInCentred() {
        List<WorkflowTaskRow> tasks = new ArrayList<>();
        tasks.add(task("root", JobState.COMPLETED));
        List<String> leaves = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            tasks.add(task("leaf" + i, JobState.AVAILABLE, "root"));
            leaves.add("leaf" + i);
        }
        tasks.add(task("join", JobState.PENDING, leaves.toArray(String[]::new)));
        WorkflowGraph g = graph(tasks);
        Map<String, WorkflowGraph.Node> n = byName(g);
        assertThat(n.get("root").y()).isEqualTo(n.get("join").y()).isEqualTo(n.get("leaf4").y());
        assertThat(g.layers().get(1)).extracting(WorkflowGraph.Node::name).containsExactlyElementsOf(leaves);
    }
}
