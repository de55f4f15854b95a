package dev.runnel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.runnel.JobArgs;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ArgsCodecTest {
    record Stamp(String name, Instant at) implements JobArgs {
        @Override
        public String kind() {
            return "stamp";
        }
    }

    @Test
    void anApplicationsMapperIsCopiedAndItsCopyRecyclesBuffersAcrossThreads() throws Exception {
        ObjectMapper given = new ObjectMapper().findAndRegisterModules();
        ArgsCodec codec = ArgsCodec.of(given);
        assertThat(given.getFactory()._getRecyclerPool()).isSameAs(JsonRecyclerPools.threadLocalPool());
        ObjectReader reader = codec.readerFor(Stamp.class);
        assertThat(reader.getFactory()._getRecyclerPool()).isNotSameAs(JsonRecyclerPools.threadLocalPool());
        // Reconfiguring the application's mapper afterwards changes nothing for the client.
        given.disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        String json = codec.encodeArgs(new Stamp("a", Instant.ofEpochSecond(1)), "stamp");
        assertThat(json).isEqualTo("{\"name\":\"a\",\"at\":1.000000000}");
        assertThat((Stamp) reader.readValue("{\"name\":\"a\",\"at\":1.0,\"extra\":true}"))
                .isEqualTo(new Stamp("a", Instant.ofEpochSecond(1)));
    }

    @Test
    void theDefaultWritesTimesAsIsoStrings() {
        assertThat(ArgsCodec.DEFAULT.encodeArgs(new Stamp("b", Instant.ofEpochSecond(1)), "stamp"))
                .isEqualTo("{\"name\":\"b\",\"at\":\"1970-01-01T00:00:01Z\"}");
    }
}
