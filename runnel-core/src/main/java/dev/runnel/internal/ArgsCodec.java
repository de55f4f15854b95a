package dev.runnel.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.JobArgs;
import dev.runnel.json.RunnelJson;
import java.util.Map;

/**
 * How a client writes and reads what the application hands it: args, and the metadata given at
 * insert. Built once per client from the application's {@code ObjectMapper}, or Runnel's default
 * ({@link RunnelJson#newMapper()}).
 */
public final class ArgsCodec {
    /** Runnel's default, for code that has no client at hand (a periodic job being defined). */
    public static final ArgsCodec DEFAULT = new ArgsCodec(RunnelJson.newMapper());

    private final ObjectMapper mapper;

    private ArgsCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * A codec on a copy of {@code given}, so that the application changing its mapper later does
     * not change how this client reads the jobs it already wrote. The copy recycles buffers
     * through a shared pool when {@code given} keeps them per thread (Jackson's default), for the
     * reason given at {@link RunnelJson#newMapper()}; that changes no output.
     */
    public static ArgsCodec of(ObjectMapper given) {
        ObjectMapper copy;
        try {
            copy = given.copy();
        } catch (IllegalStateException e) {
            // A subclass without its own copy(): use it as it is.
            return new ArgsCodec(given);
        }
        JsonFactory factory = copy.getFactory();
        if (factory._getRecyclerPool() == JsonRecyclerPools.threadLocalPool()) {
            factory.setRecyclerPool(JsonRecyclerPools.newConcurrentDequePool());
        }
        return new ArgsCodec(copy);
    }

    /**
     * {@code args} as JSON; an {@link IllegalArgumentException} naming the field that cannot be
     * encoded (its path, for a nested one) otherwise.
     */
    public String encodeArgs(JobArgs args, String kind) {
        try {
            return mapper.writeValueAsString(args);
        } catch (JsonProcessingException e) {
            throw RunnelJson.notEncodable("args of kind " + kind, e);
        }
    }

    /** The metadata given at insert, as a JSON object; as {@link #encodeArgs} when it cannot be encoded. */
    public String encodeMetadata(Map<String, ?> metadata, String kind) {
        try {
            return mapper.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw RunnelJson.notEncodable("metadata of a job of kind " + kind, e);
        }
    }

    /**
     * A reader of {@code type}; build it once per type and keep it (building one looks up the
     * type's deserializer). Properties it does not know are ignored whatever the mapper says:
     * during a rolling deployment an older worker reads args that newer code wrote.
     */
    public ObjectReader readerFor(Class<?> type) {
        return mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
