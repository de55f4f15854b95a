package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runnel.json.RunnelJson;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which jobs a listing returns ({@link Jobs#list}), or a bulk change applies to ({@link Jobs#cancel(JobQuery)}
 * and its siblings): filters, all of which a job must pass, and a page of at most {@link #limit()}
 * jobs ordered by id, which ascends with insertion.
 *
 * <p>Pages are keyset pages: {@link #nextPage} continues after the last job of a page and
 * {@link #previousPage} goes back before its first, so that a listing neither skips nor repeats a
 * job while jobs are inserted or change state between pages. {@link #all()} lists oldest first, as
 * bulk changes and audits walk the table; a listing for people (the CLI, a dashboard) asks for
 * {@link Order#NEWEST_FIRST}.
 *
 * <pre>{@code
 * JobQuery failed = JobQuery.inStates(JobState.DISCARDED).kinds("send_receipt").newestFirst().limit(50);
 * List<JobRow> page = runnel.jobs().list(failed);
 * List<JobRow> older = runnel.jobs().list(failed.nextPage(page));
 * }</pre>
 *
 * @param states only jobs in these states; empty for every state
 * @param queues only jobs in these queues; empty for every queue
 * @param kinds only jobs of these kinds; empty for every kind
 * @param tags only jobs that carry every one of these tags (not any one of them); empty for no
 *     condition on tags
 * @param args only jobs whose args hold each key of this JSON object with an equal value; the
 *     object's values must be strings, numbers, booleans or null (see {@link #args(String)})
 * @param minId only ids from this one, inclusive; 0 for no lower bound
 * @param maxId only ids up to this one, inclusive; {@link Long#MAX_VALUE} for no upper bound
 * @param createdFrom only jobs created at or after this instant
 * @param createdBefore only jobs created before this instant
 * @param order the order of a page, by id
 * @param afterId the page that follows this id in {@code order} (the last id of the page before);
 *     0 to start at the beginning
 * @param beforeId the page that precedes this id in {@code order} (the first id of the page after),
 *     still in {@code order}; 0 for none. At most one of {@code afterId} and {@code beforeId} is set
 * @param limit at most this many jobs, 1 to {@value #MAX_LIMIT}
 */
public record JobQuery(
        Set<JobState> states,
        Set<String> queues,
        Set<String> kinds,
        Set<String> tags,
        Optional<String> args,
        long minId,
        long maxId,
        Optional<Instant> createdFrom,
        Optional<Instant> createdBefore,
        Order order,
        long afterId,
        long beforeId,
        int limit) {
    /** The default page size: {@value}. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest page: {@value}. */
    public static final int MAX_LIMIT = 10_000;
    /** The most values one filter (states aside) may list: {@value}. */
    public static final int MAX_VALUES = 100;

    /** The order of a page, by id: ids ascend with insertion, so by age. */
    public enum Order {
        /** Ascending ids. */
        OLDEST_FIRST,
        /** Descending ids: what a person looking at jobs usually wants first. */
        NEWEST_FIRST
    }

    public JobQuery {
        states = stateSet(states);
        queues = names("queues", queues, InsertOptions::validateQueue);
        kinds = names("kinds", kinds, InsertOptions::validateKind);
        tags = names("tags", tags, InsertOptions::validateTag);
        args = args.map(JobQuery::normalArgs).filter(a -> !a.equals("{}"));
        if (minId < 0) {
            throw new IllegalArgumentException("minId must not be negative, was " + minId);
        }
        if (maxId < minId) {
            throw new IllegalArgumentException("maxId must not be below minId, was " + maxId + " < " + minId);
        }
        if (createdFrom.isPresent() && createdBefore.isPresent() && !createdFrom.get().isBefore(createdBefore.get())) {
            throw new IllegalArgumentException("createdFrom must be before createdBefore, was " + createdFrom.get()
                    + " and " + createdBefore.get());
        }
        if (order == null) {
            throw new IllegalArgumentException("order must not be null");
        }
        if (afterId < 0 || beforeId < 0) {
            throw new IllegalArgumentException("afterId and beforeId must not be negative, were " + afterId + " and "
                    + beforeId);
        }
        if (afterId > 0 && beforeId > 0) {
            throw new IllegalArgumentException("afterId and beforeId cannot both be set: a page is after one id or"
                    + " before one");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
        }
    }

    /**
     * The first page of jobs in {@code states} (all when empty) and {@code queue}, after
     * {@code afterId} by ascending id: the query's shape before it had more filters.
     */
    public JobQuery(Set<JobState> states, Optional<String> queue, long afterId, int limit) {
        this(states, queue.map(Set::of).orElse(Set.of()), Set.of(), Set.of(), Optional.empty(), 0, Long.MAX_VALUE,
                Optional.empty(), Optional.empty(), Order.OLDEST_FIRST, afterId, 0, limit);
    }

    /** The first page of every job, oldest first. */
    public static JobQuery all() {
        return new JobQuery(Set.of(), Optional.empty(), 0, DEFAULT_LIMIT);
    }

    /** The first page of the jobs in the given states, oldest first. */
    public static JobQuery inStates(JobState... states) {
        return all().states(states);
    }

    /** Only jobs in these states (none: every state). */
    public JobQuery states(JobState... states) {
        return states(Set.of(states));
    }

    /** Only jobs in these states (empty: every state). */
    public JobQuery states(Collection<JobState> states) {
        return new JobQuery(copy("states", states), queues, kinds, tags, args, minId, maxId, createdFrom,
                createdBefore, order, afterId, beforeId, limit);
    }

    /** Only jobs in this queue. */
    public JobQuery queue(String queue) {
        return queues(List.of(queue));
    }

    /** Only jobs in one of these queues (none: every queue). */
    public JobQuery queues(String... queues) {
        return queues(List.of(queues));
    }

    /** Only jobs in one of these queues (empty: every queue). */
    public JobQuery queues(Collection<String> queues) {
        return new JobQuery(states, copy("queues", queues), kinds, tags, args, minId, maxId,
                createdFrom, createdBefore, order, afterId, beforeId, limit);
    }

    /** Only jobs of one of these kinds (none: every kind). */
    public JobQuery kinds(String... kinds) {
        return kinds(List.of(kinds));
    }

    /** Only jobs of one of these kinds (empty: every kind). */
    public JobQuery kinds(Collection<String> kinds) {
        return new JobQuery(states, queues, copy("kinds", kinds), tags, args, minId, maxId,
                createdFrom, createdBefore, order, afterId, beforeId, limit);
    }

    /** Only jobs carrying every one of these tags (none: no condition on tags). */
    public JobQuery tags(String... tags) {
        return tags(List.of(tags));
    }

    /** Only jobs carrying every one of these tags (empty: no condition on tags). */
    public JobQuery tags(Collection<String> tags) {
        return new JobQuery(states, queues, kinds, copy("tags", tags), args, minId, maxId,
                createdFrom, createdBefore, order, afterId, beforeId, limit);
    }

    /**
     * Only jobs whose args hold each key of {@code json}, a JSON object such as
     * {@code {"customer_id": 42, "region": "eu"}}, with an equal value: top-level keys only, each
     * value a string, number, boolean or null (numbers compare by value: 1 equals 1.0). Other keys
     * of a job's args do not matter. {@code {}} is no condition.
     */
    public JobQuery args(String json) {
        return new JobQuery(states, queues, kinds, tags, Optional.of(nonNull("args", json)), minId, maxId,
                createdFrom, createdBefore, order, afterId, beforeId, limit);
    }

    /** {@link #args(String)} with the object given as a map, its values strings, numbers, booleans or null. */
    public JobQuery args(Map<String, ?> args) {
        try {
            return args(RunnelJson.WRITER.writeValueAsString(nonNull("args", args)));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Only ids from {@code minId} to {@code maxId}, both inclusive. */
    public JobQuery idRange(long minId, long maxId) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, createdFrom, createdBefore, order,
                afterId, beforeId, limit);
    }

    /** Only jobs created at or after {@code from} and before {@code before} (either may be null: unbounded). */
    public JobQuery createdBetween(Instant from, Instant before) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, Optional.ofNullable(from),
                Optional.ofNullable(before), order, afterId, beforeId, limit);
    }

    /** Pages in this order; the cursor is kept, so set it after the order. */
    public JobQuery order(Order order) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, createdFrom, createdBefore, order,
                afterId, beforeId, limit);
    }

    /** Pages newest first: {@code order(Order.NEWEST_FIRST)}. */
    public JobQuery newestFirst() {
        return order(Order.NEWEST_FIRST);
    }

    /** The page that follows {@code afterId} in this query's order; 0 for the first page. */
    public JobQuery afterId(long afterId) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, createdFrom, createdBefore, order,
                afterId, 0, limit);
    }

    /** The page that precedes {@code beforeId} in this query's order, still in that order. */
    public JobQuery beforeId(long beforeId) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, createdFrom, createdBefore, order, 0,
                beforeId, limit);
    }

    public JobQuery limit(int limit) {
        return new JobQuery(states, queues, kinds, tags, args, minId, maxId, createdFrom, createdBefore, order,
                afterId, beforeId, limit);
    }

    /** The page after {@code page} (a page this query returned): it goes on from its last job. */
    public JobQuery nextPage(List<JobRow> page) {
        if (page.isEmpty()) {
            throw new IllegalArgumentException("an empty page has no next page");
        }
        return afterId(page.getLast().id());
    }

    /**
     * The page before {@code page} (a page this query returned), ending just before its first job.
     * Near the start it holds fewer than {@link #limit()} jobs: a listing then shows the first page.
     */
    public JobQuery previousPage(List<JobRow> page) {
        if (page.isEmpty()) {
            throw new IllegalArgumentException("an empty page has no previous page");
        }
        return beforeId(page.getFirst().id());
    }

    /** Whether any filter is set (the order, cursor and limit aside): false for a query that matches every job. */
    public boolean filtered() {
        return !states.isEmpty() || !queues.isEmpty() || !kinds.isEmpty() || !tags.isEmpty() || args.isPresent()
                || minId > 0 || maxId < Long.MAX_VALUE || createdFrom.isPresent() || createdBefore.isPresent();
    }

    private interface Check {
        String apply(String value);
    }

    /** {@code values} checked one by one, as an immutable sorted set (so that equal queries print alike). */
    private static Set<String> names(String option, Set<String> values, Check check) {
        if (values.size() > MAX_VALUES) {
            throw new IllegalArgumentException(option + " may list at most " + MAX_VALUES + " values, was "
                    + values.size());
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (String value : values) {
            sorted.add(check.apply(value));
        }
        return java.util.Collections.unmodifiableSortedSet(sorted);
    }

    private static Set<JobState> stateSet(Set<JobState> states) {
        EnumSet<JobState> copy = EnumSet.noneOf(JobState.class);
        for (JobState state : states) {
            copy.add(nonNull("a state", state));
        }
        return Set.copyOf(copy);
    }

    /** A mutable copy that may hold null, for the constructor to check and name. */
    private static <T> Set<T> copy(String option, Collection<T> values) {
        return new java.util.LinkedHashSet<>(nonNull(option, values));
    }

    private static <T> T nonNull(String option, T value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " must not be null");
        }
        return value;
    }

    /** The args filter as compact JSON, checked: an object of scalar values. */
    private static String normalArgs(String json) {
        JsonNode node;
        try {
            node = RunnelJson.READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("args must be a JSON object, was not JSON: " + e.getOriginalMessage(), e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new IllegalArgumentException("args must be a JSON object, was '" + json + "'");
        }
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            JsonNode value = field.getValue();
            if (!value.isValueNode()) {
                throw new IllegalArgumentException("args can match top-level keys with strings, numbers, booleans or"
                        + " null only; '" + field.getKey() + "' holds " + value.getNodeType().name().toLowerCase(
                        java.util.Locale.ROOT));
            }
            if (value.isNumber() && !Double.isFinite(value.doubleValue())) {
                throw new IllegalArgumentException("args: '" + field.getKey() + "' holds a number too large to compare");
            }
        }
        return object.toString();
    }
}
