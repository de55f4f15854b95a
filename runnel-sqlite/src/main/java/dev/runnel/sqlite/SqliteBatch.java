package dev.runnel.sqlite;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.runnel.driver.JobCompleteManyParams;
import dev.runnel.driver.JobInsertParams;
import dev.runnel.driver.Times;
import java.util.List;

/**
 * Encodes batches as the JSON arrays that {@code JobInsertMany} and {@code JobCompleteMany} read
 * with json_each: one string built in Java and parsed once in C costs far less than a JNI round
 * trip per row.
 */
final class SqliteBatch {
    private SqliteBatch() {}

    /** Completions as {@code [[id, finalized_at, attempted_at], ...]}. */
    static String encodeCompletions(JobCompleteManyParams params) {
        StringBuilder out = new StringBuilder(params.size() * 48).append('[');
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append('[').append(params.ids()[i]).append(',').append(params.finalizedAtMicros()[i])
                    .append(',').append(params.attemptedAtMicros()[i]).append(']');
        }
        return out.append(']').toString();
    }

    /** A JSON array of integers, as {@link #encodeIds} writes it. */
    static long[] decodeLongs(String json) {
        String body = json.strip();
        body = body.substring(1, body.length() - 1).strip();
        if (body.isEmpty()) {
            return new long[0];
        }
        String[] parts = body.split(",");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Long.parseLong(parts[i].strip());
        }
        return values;
    }

    static String encodeIds(long[] ids) {
        StringBuilder out = new StringBuilder(ids.length * 8).append('[');
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(ids[i]);
        }
        return out.append(']').toString();
    }

    /**
     * Whether the jobs differ in nothing but their args, which are all JSON objects, so that
     * {@code JobInsertManyUniform} can bind the rest once.
     */
    static boolean isUniform(List<JobInsertParams> jobs) {
        JobInsertParams first = jobs.getFirst();
        for (JobInsertParams job : jobs) {
            if (!job.args().startsWith("{")
                    || job != first && !(job.kind().equals(first.kind()) && job.queue().equals(first.queue())
                            && job.state() == first.state() && job.priority() == first.priority()
                            && job.maxAttempts() == first.maxAttempts() && job.createdAt().equals(first.createdAt())
                            && job.scheduledAt().equals(first.scheduledAt()) && job.tags().equals(first.tags())
                            && job.metadata().equals(first.metadata()))) {
                return false;
            }
        }
        return true;
    }

    /** The args alone, as a JSON array of objects. */
    static String encodeArgs(List<JobInsertParams> jobs) {
        StringBuilder out = new StringBuilder(jobs.size() * 32).append('[');
        for (int i = 0; i < jobs.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(jobs.get(i).args());
        }
        return out.append(']').toString();
    }

    /** Jobs to insert, one array per job in {@code JobInsertMany}'s column order. */
    static String encode(List<JobInsertParams> jobs) {
        StringBuilder out = new StringBuilder(jobs.size() * 160).append('[');
        JsonStringEncoder quote = JsonStringEncoder.getInstance();
        for (int i = 0; i < jobs.size(); i++) {
            JobInsertParams job = jobs.get(i);
            if (i > 0) {
                out.append(',');
            }
            out.append("[\"");
            quote.quoteAsString(job.kind(), out);
            out.append("\",").append(job.args()).append(",\"").append(job.state().dbName()).append("\",\"");
            quote.quoteAsString(job.queue(), out);
            out.append("\",").append(job.priority()).append(',').append(job.maxAttempts())
                    .append(',').append(Times.toMicros(job.createdAt()))
                    .append(',').append(Times.toMicros(job.scheduledAt())).append(",[");
            List<String> tags = job.tags();
            for (int t = 0; t < tags.size(); t++) {
                out.append(t > 0 ? ",\"" : "\"");
                quote.quoteAsString(tags.get(t), out);
                out.append('"');
            }
            out.append("],").append(job.metadata()).append(']');
        }
        return out.append(']').toString();
    }
}
