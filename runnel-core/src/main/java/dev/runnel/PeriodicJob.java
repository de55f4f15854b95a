package dev.runnel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.runnel.json.PeriodicDigest;
import dev.runnel.json.RunnelJson;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A periodic job's definition: a name (its identity in the cluster), a {@link Schedule}, and the
 * job each tick enqueues (a kind, JSON args and insert options). Immutable: each {@code with}-style
 * method returns a changed copy. Every value is checked as it is given, and a bad one throws
 * {@link IllegalArgumentException} naming it.
 *
 * <pre>{@code
 * PeriodicJob.cron("nightly-report", "0 30 2 * * *", new NightlyReport())
 *         .zone(ZoneId.of("Europe/Berlin"))
 *         .catchUp(PeriodicJob.CatchUp.LATEST)
 *         .options(InsertOptions.builder().queue("reports").build());
 * PeriodicJob.every("heartbeat", Duration.ofSeconds(30), "ping", "{\"target\":\"db\"}");
 * }</pre>
 *
 * <p>Declared on {@link RunnelBuilder#periodic}, or added at runtime with {@link Periodic#upsert}.
 * Each enqueued job's metadata names the periodic job and its tick:
 * {@code {"periodic":"nightly-report","tick":"2030-01-02T01:30:00Z"}} ({@code "start"} instead of
 * {@code "tick"} for a {@linkplain #runOnStart run on start}).
 */
public final class PeriodicJob {
    /** The metadata keys Runnel sets on the jobs it enqueues, so refused in a definition's own metadata. */
    public static final Set<String> RESERVED_METADATA = Set.of("periodic", "tick", "start");

    /**
     * What happens to ticks missed while no client could enqueue them (every client was down). A
     * tick is missed once it is more than {@link #GRACE} late, or twice the leader lease if that is
     * longer: ticks less late, as across a change of leader, are all enqueued under either policy.
     * Ticks that come due while the job is paused are never enqueued (see {@link Periodic#pause}).
     */
    public enum CatchUp {
        /** Missed ticks are dropped: only ticks from now on fire (the default). */
        SKIP,
        /** The latest missed tick is enqueued once, late; older ones are dropped. */
        LATEST;

        /** The name stored in the database: {@code skip} or {@code latest}. */
        public String dbName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The policy stored as {@code name}. */
        public static CatchUp fromDb(String name) {
            for (CatchUp c : values()) {
                if (c.dbName().equals(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("catch-up must be skip or latest, was '" + name + "'");
        }
    }

    /** How late a tick may be enqueued before it counts as missed (at least; see {@link CatchUp}). */
    public static final Duration GRACE = Duration.ofMinutes(1);

    private final String name;
    private final Schedule schedule;
    private final String kind;
    private final String args;
    /**
     * The args object the definition was made from, or null for args given as JSON: a client
     * encodes it again with its own mapper ({@link #encodedWith}).
     */
    private final JobArgs source;
    /** The args type's own defaults, under the options given. */
    private final InsertOptions kindDefaults;
    private final InsertOptions options;
    /** The options' metadata as a compact JSON object, encoded once the options are given. */
    private final String metadata;
    private final CatchUp catchUp;
    private final boolean runOnStart;

    private PeriodicJob(String name, Schedule schedule, String kind, String args, JobArgs source,
            InsertOptions kindDefaults, InsertOptions options, CatchUp catchUp, boolean runOnStart) {
        this.name = name;
        this.schedule = schedule;
        this.kind = kind;
        this.args = args;
        this.source = source;
        this.kindDefaults = kindDefaults;
        this.options = options;
        this.metadata = encodeMetadata(name, options);
        this.catchUp = catchUp;
        this.runOnStart = runOnStart;
    }

    /** {@code args} on cron {@code expression} (see {@link Schedule}), in UTC until {@link #zone} says otherwise. */
    public static PeriodicJob cron(String name, String expression, JobArgs args) {
        return of(name, Schedule.cron(expression), args);
    }

    /** {@code args} every {@code interval}, ticks aligned to the epoch (see {@link Schedule#every}). */
    public static PeriodicJob every(String name, Duration interval, JobArgs args) {
        return of(name, Schedule.every(interval), args);
    }

    /**
     * {@code args} on {@code schedule}, with the args type's {@link JobArgs#insertOptions()} as
     * defaults. The args are encoded here with Runnel's default mapper (so a value it cannot encode
     * is refused at once), and again with a client's own mapper
     * ({@link RunnelBuilder#objectMapper}) when that client stores the definition.
     */
    public static PeriodicJob of(String name, Schedule schedule, JobArgs args) {
        if (args == null) {
            throw new IllegalArgumentException("args of periodic job " + name + " must not be null");
        }
        String kind = InsertOptions.validateKind(args.kind());
        return create(name, schedule, kind, encode(PeriodicJob::encodeByDefault, name, kind, args), args,
                args.insertOptions());
    }

    /** {@code args} as Runnel's default mapper writes them, refused as a client's codec refuses them. */
    private static String encodeByDefault(JobArgs args, String kind) {
        try {
            return RunnelJson.WRITER.writeValueAsString(args);
        } catch (JsonProcessingException e) {
            throw RunnelJson.notEncodable("args of kind " + kind, e);
        }
    }

    private static String encode(BiFunction<JobArgs, String, String> encoder, String name, String kind, JobArgs args) {
        try {
            return encoder.apply(args, kind);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("periodic job " + name + ": " + e.getMessage(), e.getCause());
        }
    }

    /**
     * This definition with its args encoded by {@code encoder} (a client's, given args and kind),
     * when it was made from an args object.
     */
    PeriodicJob encodedWith(BiFunction<JobArgs, String, String> encoder) {
        if (source == null) {
            return this;
        }
        return new PeriodicJob(name, schedule, kind, encode(encoder, name, kind, source), source, kindDefaults, options,
                catchUp, runOnStart);
    }

    /** A job of {@code kind} with {@code argsJson} (a JSON object) on cron {@code expression}: no Java type needed. */
    public static PeriodicJob cron(String name, String expression, String kind, String argsJson) {
        return of(name, Schedule.cron(expression), kind, argsJson);
    }

    /** A job of {@code kind} with {@code argsJson} (a JSON object) every {@code interval}. */
    public static PeriodicJob every(String name, Duration interval, String kind, String argsJson) {
        return of(name, Schedule.every(interval), kind, argsJson);
    }

    /** A job of {@code kind} with {@code argsJson} (a JSON object) on {@code schedule}. */
    public static PeriodicJob of(String name, Schedule schedule, String kind, String argsJson) {
        return create(name, schedule, InsertOptions.validateKind(kind), objectJson("args", name, argsJson), null,
                InsertOptions.NONE);
    }

    private static PeriodicJob create(String name, Schedule schedule, String kind, String args, JobArgs source,
            InsertOptions defaults) {
        validateName(name);
        if (schedule == null) {
            throw new IllegalArgumentException("schedule of periodic job " + name + " must not be null");
        }
        return new PeriodicJob(name, schedule, kind, args, source, defaults, defaults, CatchUp.SKIP, false);
    }

    /** Checks a periodic job's name as queue and kind names are checked: 1 to 128 characters, no control characters. */
    public static String validateName(String name) {
        return InsertOptions.validateName("periodic job name", name);
    }

    /** This job with its cron schedule read in {@code zone}; an interval has no zone. */
    public PeriodicJob zone(ZoneId zone) {
        return new PeriodicJob(name, schedule.withZone(zone), kind, args, source, kindDefaults, options, catchUp, runOnStart);
    }

    /** What happens to ticks missed while no client ran (default {@link CatchUp#SKIP}). */
    public PeriodicJob catchUp(CatchUp catchUp) {
        if (catchUp == null) {
            throw new IllegalArgumentException("catchUp of periodic job " + name + " must not be null");
        }
        return new PeriodicJob(name, schedule, kind, args, source, kindDefaults, options, catchUp, runOnStart);
    }

    /**
     * Whether a job is also enqueued once when this definition is deployed: when it is first
     * stored, and again whenever it is stored changed; never merely because a process started
     * (three clients starting with the same new definition enqueue one job, restarting them none).
     * Default false.
     */
    public PeriodicJob runOnStart(boolean runOnStart) {
        return new PeriodicJob(name, schedule, kind, args, source, kindDefaults, options, catchUp, runOnStart);
    }

    /**
     * The options of every job enqueued (queue, priority, max attempts, tags, metadata), over the
     * args type's defaults. A scheduled time is refused (the ticks schedule the job), as are unique
     * options (each tick is enqueued once already; a unique default of the args type does not apply
     * to periodic jobs either) and the metadata keys in {@link #RESERVED_METADATA}.
     */
    public PeriodicJob options(InsertOptions options) {
        if (options == null) {
            throw new IllegalArgumentException("options of periodic job " + name + " must not be null");
        }
        if (options.scheduledAt().isPresent()) {
            throw new IllegalArgumentException("options of periodic job " + name + " must not set scheduledAt: its"
                    + " schedule decides when its jobs run");
        }
        if (options.unique().isPresent()) {
            throw new IllegalArgumentException("options of periodic job " + name + " must not set unique: each tick"
                    + " is enqueued once already, its tick the job's unique key");
        }
        for (String key : options.metadata().map(m -> m.keySet()).orElse(Set.of())) {
            if (RESERVED_METADATA.contains(key)) {
                throw new IllegalArgumentException("metadata of periodic job " + name + " must not use the key '" + key
                        + "': Runnel sets " + RESERVED_METADATA.stream().sorted().toList() + " on the jobs it enqueues");
            }
        }
        return new PeriodicJob(name, schedule, kind, args, source, kindDefaults, options.orElse(kindDefaults), catchUp,
                runOnStart);
    }

    public String name() {
        return name;
    }

    public Schedule schedule() {
        return schedule;
    }

    public String kind() {
        return kind;
    }

    /** The args each job gets, as compact JSON. */
    public String args() {
        return args;
    }

    /** The insert options, with the args type's defaults filled in. */
    public InsertOptions options() {
        return options;
    }

    public CatchUp catchUp() {
        return catchUp;
    }

    public boolean runOnStart() {
        return runOnStart;
    }

    /** The queue each job goes to. */
    public String queue() {
        return options.queue().orElse(InsertOptions.DEFAULT_QUEUE);
    }

    public int priority() {
        return options.priority().orElse(InsertOptions.DEFAULT_PRIORITY);
    }

    public int maxAttempts() {
        return options.maxAttempts().orElse(InsertOptions.DEFAULT_MAX_ATTEMPTS);
    }

    public List<String> tags() {
        return options.tags().orElse(List.of());
    }

    /** The definition's own metadata as a compact JSON object (without Runnel's keys). */
    public String metadata() {
        return metadata;
    }

    private static String encodeMetadata(String name, InsertOptions options) {
        try {
            return RunnelJson.WRITER.writeValueAsString(options.metadata().orElse(java.util.Map.of()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata of periodic job " + name + " cannot be encoded as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** {@code json} compacted, when it is a JSON object; an {@link IllegalArgumentException} otherwise. */
    static String objectJson(String option, String name, String json) {
        if (json == null || json.isBlank()) {
            return "{}";
        }
        JsonNode node;
        try {
            node = RunnelJson.READER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(option + " of periodic job " + name + " is not valid JSON: "
                    + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(option + " of periodic job " + name + " must be a JSON object, was "
                    + json.strip());
        }
        return node.toString();
    }

    /**
     * Equal when the names are and the definitions are the same in every part, args and metadata
     * compared as JSON (their keys in any order), as {@link Periodic#upsert} compares them.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof PeriodicJob p && p.name.equals(name)
                && p.digest().equals(digest());
    }

    /** What the cluster stores to tell this definition from another (every part but the name). */
    private String digest() {
        return PeriodicDigest.of(kind, args, queue(), priority(), maxAttempts(), tags(), metadata, schedule.text(),
                schedule.zone().getId(), catchUp.dbName(), runOnStart);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "PeriodicJob[" + name + ", " + schedule + ", " + kind + " " + args + ", queue " + queue()
                + ", catch-up " + catchUp.dbName() + (runOnStart ? ", run on start" : "") + "]";
    }
}
