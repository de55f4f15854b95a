package dev.runnel.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The runtime's own JSON (metadata, output, errors, internal values) and Runnel's default mapper
 * for args. Args are not Runnel's own: a client writes and reads them with its configured mapper.
 */
public final class RunnelJson {
    /** The key of a job's metadata that holds the output of the attempt that completed it. */
    public static final String OUTPUT_KEY = "output";
    /** The metadata key under which a job's snoozes are counted (the outcome statements write it). */
    public static final String SNOOZES_KEY = "snoozes";

    /** Buffers kept for reuse by a mapper's parsers and generators ({@link #newRecyclerPool()}). */
    private static final int RECYCLER_POOL_SIZE = 64;

    /**
     * Never handed out: a mapper is mutable, and a change made to a shared one by any code would
     * change how every client reads and writes. Readers and writers are immutable.
     */
    private static final ObjectMapper MAPPER = newMapper();

    /** Reads the runtime's own JSON (trees, maps); immutable and thread-safe. */
    public static final ObjectReader READER = MAPPER.reader();

    /** Writes the runtime's own JSON; immutable and thread-safe. */
    public static final ObjectWriter WRITER = MAPPER.writer();

    /** Makes the trees the runtime builds (objects, arrays). */
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RunnelJson() {}

    /**
     * A new mapper as Runnel configures it by default, for args and for its own JSON: Java time
     * types ({@code Instant}, {@code LocalDate}, {@code Duration}...) as ISO-8601 strings, an
     * offset kept as written rather than moved to UTC, and properties it does not know ignored,
     * so that a worker still reads args that a newer version of the code wrote.
     *
     * <p>Its parsers and generators recycle their buffers through a shared pool. Jackson's default
     * keeps them in a ThreadLocal, but every job runs on a new virtual thread: each decode missed
     * the ThreadLocal and allocated fresh buffers, a quarter of a drain worker's CPU in a JFR
     * profile (100k jobs, 2 x 50 on Postgres).
     */
    public static ObjectMapper newMapper() {
        return JsonMapper.builder(JsonFactory.builder().recyclerPool(newRecyclerPool()).build())
                .addModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
    }

    /**
     * A pool for the buffers of a mapper's parsers and generators, shared by all threads: a bounded
     * array, which takes a buffer back without allocating (a linked pool allocates a node each time,
     * once per job). Only a parse or a write in progress holds a buffer, so the few carrier threads
     * rarely need more than its bound; past it, a buffer is allocated and dropped.
     */
    private static RecyclerPool<BufferRecycler> newRecyclerPool() {
        return JsonRecyclerPools.newBoundedPool(RECYCLER_POOL_SIZE);
    }

    /**
     * The refusal of a value that cannot be encoded: {@code what} (such as {@code "args of kind
     * x"}) "cannot be encoded as JSON", the field it failed at when Jackson knows, and why.
     */
    public static IllegalArgumentException notEncodable(String what, JsonProcessingException e) {
        return new IllegalArgumentException(what + " cannot be encoded as JSON" + where(e) + ": "
                + e.getOriginalMessage(), e);
    }

    /** {@code " at field 'a.b[2].c'"} for an exception that knows where it happened; empty otherwise. */
    static String where(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException m) || m.getPath().isEmpty()) {
            return "";
        }
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : m.getPath()) {
            if (ref.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "" : " at field '" + path + "'";
    }
}
