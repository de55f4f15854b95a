package dev.runnel.web.internal;

import dev.runnel.JobState;
import dev.runnel.WorkflowTaskRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A workflow's tasks laid out for an SVG drawn on the server: layers from left to right (a task
 * one layer right of the furthest task it runs after), each layer's tasks ordered by where the
 * tasks they run after sit, so that edges cross less; and each dependency an edge from the right
 * side of a task to the left side of the one after it, through a slot of its own in each layer it
 * crosses, so that no arrow runs behind a box. No script draws anything: the page is the picture.
 */
public record WorkflowGraph(int width, int height, List<Node> nodes, List<Edge> edges, List<List<Node>> layers) {
    /** Workflows of more tasks are listed, not drawn: a picture of thousands of boxes shows nothing. */
    public static final int MAX_DRAWN = 200;

    static final int NODE_WIDTH = 176;
    static final int NODE_HEIGHT = 46;
    static final int GAP_X = 56;
    static final int GAP_Y = 14;
    static final int PAD = 8;
    /** About what fits in a box at the page's font: longer names are cut, the whole one in the box's tooltip. */
    static final int LABEL_CHARS = 21;

    /**
     * One task's box: where it is, its name (whole and as drawn), its state's word ({@code deleted}
     * once the job is gone) and the box's CSS classes, and the link to its job (empty once deleted).
     */
    public record Node(String name, String label, long jobId, String kind, String state, String stateClass,
            Optional<String> href, int layer, int x, int y) {
        public int width() {
            return NODE_WIDTH;
        }

        public int height() {
            return NODE_HEIGHT;
        }

        public int textX() {
            return x + 10;
        }

        public int nameY() {
            return y + 19;
        }

        public int stateY() {
            return y + 36;
        }
    }

    /** An arrow from a task to one that runs after it; {@code done} once the task it leaves from completed. */
    public record Edge(String from, String to, String path, boolean done) {}

    /**
     * A slot in a layer: a task, or a waypoint of an arrow that crosses this layer on its way to a
     * task further right (so that it runs between the boxes, not behind them); {@code preds} are
     * the slots of the layer before that lead to it.
     */
    private record Slot(String key, WorkflowTaskRow task, List<String> preds) {}

    /** The graph of {@code tasks}, each node linking to {@code jobHref} of its job id. */
    static WorkflowGraph of(List<WorkflowTaskRow> tasks, java.util.function.LongFunction<String> jobHref) {
        Map<String, WorkflowTaskRow> byName = new HashMap<>();
        Map<String, Integer> order = new HashMap<>();
        for (WorkflowTaskRow t : tasks) {
            byName.put(t.name(), t);
            order.put(t.name(), order.size());
        }
        Map<String, Integer> layerOf = new HashMap<>();
        for (WorkflowTaskRow t : tasks) {
            layer(t.name(), byName, layerOf, new HashSet<>());
        }
        int layerCount = layerOf.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        List<List<Slot>> byLayer = new ArrayList<>();
        for (int i = 0; i < layerCount; i++) {
            byLayer.add(new ArrayList<>());
        }
        // Each arrow that skips layers gets a waypoint in each layer it crosses, keyed by its ends.
        Map<String, List<String>> waypoints = new HashMap<>();
        for (WorkflowTaskRow t : tasks) {
            int to = layerOf.get(t.name());
            List<String> preds = new ArrayList<>();
            for (String dep : t.after()) {
                if (!byName.containsKey(dep)) {
                    continue;
                }
                String previous = dep;
                List<String> points = new ArrayList<>();
                for (int l = layerOf.get(dep) + 1; l < to; l++) {
                    String key = "\0" + dep + "\0" + t.name() + "\0" + l;
                    byLayer.get(l).add(new Slot(key, null, List.of(previous)));
                    points.add(key);
                    previous = key;
                }
                waypoints.put(dep + "\0" + t.name(), points);
                preds.add(previous);
            }
            byLayer.get(to).add(new Slot(t.name(), t, preds));
        }
        // Each layer in the order of the mean row of the slots that lead to its slots (insert
        // order breaks ties): one sweep of the barycentre heuristic, enough for the graphs people draw.
        Map<String, Integer> rowOf = new HashMap<>();
        Map<String, Double> centre = new HashMap<>();
        for (List<Slot> layer : byLayer) {
            for (int i = 0; i < layer.size(); i++) {
                Slot slot = layer.get(i);
                double sum = 0;
                int n = 0;
                for (String pred : slot.preds()) {
                    Integer row = rowOf.get(pred);
                    if (row != null) {
                        sum += row;
                        n++;
                    }
                }
                // A slot led to by nothing (a first task) keeps its insert order.
                centre.put(slot.key(), n == 0 ? (slot.task() == null ? i : order.get(slot.key())) : sum / n);
            }
            layer.sort(Comparator.comparingDouble((Slot x) -> centre.get(x.key()))
                    .thenComparing(x -> x.task() == null ? 1 : 0)
                    .thenComparing(x -> x.task() == null ? 0 : order.get(x.key())));
            for (int i = 0; i < layer.size(); i++) {
                rowOf.put(layer.get(i).key(), i);
            }
        }
        int rows = byLayer.stream().mapToInt(List::size).max().orElse(0);
        int height = PAD * 2 + rows * NODE_HEIGHT + Math.max(0, rows - 1) * GAP_Y;
        List<Node> nodes = new ArrayList<>();
        List<List<Node>> layers = new ArrayList<>();
        Map<String, Node> nodeOf = new HashMap<>();
        Map<String, int[]> pointOf = new HashMap<>();
        for (int l = 0; l < layerCount; l++) {
            List<Slot> layer = byLayer.get(l);
            // Each layer centred on the tallest, so that a fan-out and its fan-in line up.
            int offset = (rows - layer.size()) * (NODE_HEIGHT + GAP_Y) / 2;
            int x = PAD + l * (NODE_WIDTH + GAP_X);
            List<Node> column = new ArrayList<>();
            for (int i = 0; i < layer.size(); i++) {
                Slot slot = layer.get(i);
                int y = PAD + offset + i * (NODE_HEIGHT + GAP_Y);
                if (slot.task() == null) {
                    pointOf.put(slot.key(), new int[] {x, y + NODE_HEIGHT / 2});
                    continue;
                }
                WorkflowTaskRow t = slot.task();
                String state = t.state().map(JobState::dbName).orElse("deleted");
                Node node = new Node(t.name(), label(t.name()), t.jobId(), t.kind(), state, "node st-" + state,
                        t.state().isPresent() ? Optional.of(jobHref.apply(t.jobId())) : Optional.empty(), l, x, y);
                column.add(node);
                nodes.add(node);
                nodeOf.put(t.name(), node);
            }
            layers.add(List.copyOf(column));
        }
        List<Edge> edges = new ArrayList<>();
        for (WorkflowTaskRow t : tasks) {
            Node to = nodeOf.get(t.name());
            for (String dep : t.after()) {
                Node from = nodeOf.get(dep);
                if (from == null) {
                    continue;
                }
                List<int[]> via = waypoints.getOrDefault(dep + "\0" + t.name(), List.of()).stream()
                        .map(pointOf::get).toList();
                edges.add(new Edge(dep, t.name(), path(from, via, to), from.state().equals(JobState.COMPLETED.dbName())));
            }
        }
        int width = layerCount == 0 ? 0 : PAD * 2 + layerCount * NODE_WIDTH + (layerCount - 1) * GAP_X;
        return new WorkflowGraph(width, height, List.copyOf(nodes), List.copyOf(edges), List.copyOf(layers));
    }

    /** The layer of task {@code name}: 0 when it runs after none of the tasks, else one past its furthest dependency. */
    private static int layer(String name, Map<String, WorkflowTaskRow> byName, Map<String, Integer> layerOf,
            Set<String> visiting) {
        Integer known = layerOf.get(name);
        if (known != null) {
            return known;
        }
        WorkflowTaskRow task = byName.get(name);
        // A stored workflow has no cycle (it is checked before it is written); the guard keeps a
        // damaged one from recursing for ever.
        if (task == null || !visiting.add(name)) {
            return -1;
        }
        int layer = 0;
        for (String dep : task.after()) {
            if (byName.containsKey(dep)) {
                layer = Math.max(layer, layer(dep, byName, layerOf, visiting) + 1);
            }
        }
        visiting.remove(name);
        layerOf.put(name, layer);
        return layer;
    }

    /**
     * A curve from the middle of {@code from}'s right side to the middle of {@code to}'s left
     * side, through each waypoint {@code via} (the left end of a box-wide stretch it runs straight
     * along, in a layer it crosses).
     */
    private static String path(Node from, List<int[]> via, Node to) {
        int x = from.x() + NODE_WIDTH;
        int y = from.y() + NODE_HEIGHT / 2;
        StringBuilder d = new StringBuilder("M" + x + " " + y);
        for (int[] p : via) {
            curve(d, x, y, p[0], p[1]);
            x = p[0] + NODE_WIDTH;
            y = p[1];
            d.append(" L").append(x).append(' ').append(y);
        }
        curve(d, x, y, to.x() - 4, to.y() + NODE_HEIGHT / 2);
        return d.toString();
    }

    private static void curve(StringBuilder d, int x1, int y1, int x2, int y2) {
        int bend = Math.max(16, (x2 - x1) / 2);
        d.append(" C").append(x1 + bend).append(' ').append(y1).append(' ').append(x2 - bend).append(' ').append(y2)
                .append(' ').append(x2).append(' ').append(y2);
    }

    /** {@code name} as a box shows it: cut to {@link #LABEL_CHARS} characters, a surrogate pair kept whole. */
    static String label(String name) {
        if (name.codePointCount(0, name.length()) <= LABEL_CHARS) {
            return name;
        }
        return name.substring(0, name.offsetByCodePoints(0, LABEL_CHARS - 1)) + "…";
    }
}
