package dev.runnel.internal;

import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.JobArgs;
import dev.runnel.Worker;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A registered worker: the kind, its args type, the worker, and the reader of its args, which the
 * client's build adds ({@link #readingWith}); null before.
 */
public record WorkUnit<T extends JobArgs>(String kind, Class<T> type, Worker<T> worker, ObjectReader reader) {
    public WorkUnit(String kind, Class<T> type, Worker<T> worker) {
        this(kind, type, worker, null);
    }

    /**
     * {@code units}, each with the reader of its args from {@code codec} (kept where it has one):
     * built once, when the client is, so that the first job of each kind does not wait for the args
     * type's introspection.
     */
    public static Map<String, WorkUnit<?>> readingWith(Map<String, WorkUnit<?>> units, ArgsCodec codec) {
        Map<String, WorkUnit<?>> read = new LinkedHashMap<>();
        units.forEach((kind, unit) -> read.put(kind, unit.readingWith(codec)));
        return read;
    }

    private WorkUnit<T> readingWith(ArgsCodec codec) {
        return reader != null ? this : new WorkUnit<>(kind, type, worker, codec.readerFor(type));
    }
}
