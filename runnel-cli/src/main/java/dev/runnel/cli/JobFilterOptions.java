package dev.runnel.cli;

import dev.runnel.JobQuery;
import dev.runnel.JobState;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/** The filters {@code runnel jobs list} and the bulk forms of cancel, retry and delete share. */
final class JobFilterOptions {
    @Option(names = "--state", split = ",", paramLabel = "STATE",
            description = "Only these states (repeat or separate by commas): available, scheduled, running,"
                    + " retryable, completed, cancelled, discarded.")
    List<String> states = List.of();

    @Option(names = "--queue", split = ",", paramLabel = "QUEUE", description = "Only these queues (repeat or separate by commas).")
    List<String> queues = List.of();

    @Option(names = "--kind", split = ",", paramLabel = "KIND", description = "Only these kinds (repeat or separate by commas).")
    List<String> kinds = List.of();

    @Option(names = "--tag", split = ",", paramLabel = "TAG",
            description = "Only jobs carrying every one of these tags (repeat or separate by commas).")
    List<String> tags = List.of();

    @Option(names = "--args", paramLabel = "JSON",
            description = "Only jobs whose args hold each key of this JSON object with an equal value, e.g."
                    + " '{\"customer_id\": 42}' (top-level keys; strings, numbers, booleans, null).")
    String args;

    @Option(names = "--min-id", paramLabel = "ID", description = "Only ids from this one on.")
    Long minId;

    @Option(names = "--max-id", paramLabel = "ID", description = "Only ids up to this one.")
    Long maxId;

    @Option(names = "--created-from", paramLabel = "TIME",
            description = "Only jobs created at or after this instant (ISO-8601, e.g. 2026-12-01T09:00:00Z).")
    String createdFrom;

    @Option(names = "--created-before", paramLabel = "TIME", description = "Only jobs created before this instant (ISO-8601).")
    String createdBefore;

    /** The query of every job these filters match, oldest first, a page of {@code limit}. */
    JobQuery query(int limit) {
        List<JobState> wanted = new ArrayList<>();
        for (String s : states) {
            wanted.add(state(s));
        }
        if (minId != null) {
            Flags.atLeast("--min-id", minId, 0);
        }
        if (maxId != null) {
            Flags.atLeast("--max-id", maxId, minId == null ? 0 : minId);
        }
        JobQuery query = JobQuery.all().limit(limit).states(wanted).queues(queues).kinds(kinds).tags(tags)
                .idRange(minId == null ? 0 : minId, maxId == null ? Long.MAX_VALUE : maxId)
                .createdBetween(instant("--created-from", createdFrom), instant("--created-before", createdBefore));
        return args == null ? query : query.args(args);
    }

    private static JobState state(String name) {
        for (JobState s : JobState.values()) {
            if (s.dbName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("--state must be one of available, scheduled, running, retryable,"
                + " completed, cancelled, discarded, was '" + name + "'");
    }

    private static Instant instant(String flag, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(flag + " must be an ISO-8601 instant such as 2026-12-01T09:00:00Z, was '"
                    + value + "'");
        }
    }
}
