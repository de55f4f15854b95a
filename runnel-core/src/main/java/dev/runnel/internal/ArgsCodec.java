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
    /**
     * The largest args accepted by default: 1 MiB of JSON. A job's args travel with every claim
     * and every listing; large data belongs elsewhere, with a reference to it in the args.
     */
    public static final int DEFAULT_MAX_ARGS_BYTES = 1 << 20;
    /** The largest args limit a client takes: 268,435,455 bytes, the most a Postgres jsonb value holds. */
    public static final int MAX_ARGS_BYTES = (1 << 28) - 1;

    /** Runnel's default, for code that has no client at hand (a periodic job being defined). */
    public static final ArgsCodec DEFAULT = new ArgsCodec(RunnelJson.newMapper(), DEFAULT_MAX_ARGS_BYTES);

    private final ObjectMapper mapper;
    private final int maxArgsBytes;

    private ArgsCodec(ObjectMapper mapper, int maxArgsBytes) {
        this.mapper = mapper;
        this.maxArgsBytes = maxArgsBytes;
    }

    /**
     * A codec on a copy of {@code given}, so that the application changing its mapper later does
     * not change how this client reads the jobs it already wrote. The copy recycles buffers
     * through the pool of Runnel's default mapper when {@code given} keeps them per thread
     * (Jackson's default), for the reason given at {@link RunnelJson#newMapper()}; that changes no
     * output.
     */
    public static ArgsCodec of(ObjectMapper given) {
        ObjectMapper copy;
        try {
            copy = given.copy();
        } catch (IllegalStateException e) {
            // A subclass without its own copy(): use it as it is.
            return new ArgsCodec(given, DEFAULT_MAX_ARGS_BYTES);
        }
        JsonFactory factory = copy.getFactory();
        if (factory._getRecyclerPool() == JsonRecyclerPools.threadLocalPool()) {
            factory.setRecyclerPool(DEFAULT.mapper.getFactory()._getRecyclerPool());
        }
        return new ArgsCodec(copy, DEFAULT_MAX_ARGS_BYTES);
    }

    /** This codec, refusing args of more than {@code maxArgsBytes} bytes of JSON (checked by the builder). */
    public ArgsCodec withMaxArgsBytes(int maxArgsBytes) {
        return maxArgsBytes == this.maxArgsBytes ? this : new ArgsCodec(mapper, maxArgsBytes);
    }

    /** Whether this codec writes args as {@link #DEFAULT} does (Runnel's own mapper), whatever its limit. */
    public boolean writesAsDefault() {
        return mapper == DEFAULT.mapper;
    }

    /**
     * {@code args} as JSON; an {@link IllegalArgumentException} naming the field that cannot be
     * encoded (its path, for a nested one), or as {@link #checkArgs} says, otherwise.
     */
    public String encodeArgs(JobArgs args, String kind) {
        String json;
        try {
            json = mapper.writeValueAsString(args);
        } catch (JsonProcessingException e) {
            throw RunnelJson.notEncodable("args of kind " + kind, e);
        }
        checkArgs(json, kind);
        return json;
    }

    /**
     * Checks args of {@code kind} encoded as {@code json}, in one pass over its characters: an
     * {@link IllegalArgumentException} when it is larger than this client's limit (naming the
     * size and the limit) or holds what cannot be stored as given (naming the string that holds
     * it; see {@link JsonText}).
     */
    public void checkArgs(String json, String kind) {
        long size = JsonText.scan(json);
        if (size < 0) {
            throw new IllegalArgumentException("args of kind " + kind + ": " + JsonText.problemAt(json, (int) (-1 - size)));
        }
        if (size > maxArgsBytes) {
            throw new IllegalArgumentException("args of kind " + kind + " are " + size + " bytes as JSON, more than"
                    + " the limit of " + maxArgsBytes + " (RunnelBuilder.maxArgsBytes): store large data elsewhere and"
                    + " put a reference to it in the args");
        }
    }

    /**
     * The metadata given at insert, as a JSON object; as {@link #encodeArgs} when it cannot be
     * encoded or holds what cannot be stored as given (it has no limit of its own).
     */
    public String encodeMetadata(Map<String, ?> metadata, String kind) {
        String json;
        try {
            json = mapper.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw RunnelJson.notEncodable("metadata of a job of kind " + kind, e);
        }
        checkMetadata(json, kind);
        return json;
    }

    /** Checks the metadata of a job of {@code kind}, as JSON, for what cannot be stored as given (see {@link JsonText}). */
    public static void checkMetadata(String json, String kind) {
        long size = JsonText.scan(json);
        if (size < 0) {
            throw new IllegalArgumentException("metadata of a job of kind " + kind + ": "
                    + JsonText.problemAt(json, (int) (-1 - size)));
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
