package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8CodecTest {
    private static final String TEXT = "{\"note\":\"café ✓ 😀\",\"n\":1}";

    @Test
    void decodesHeapDirectAndReadOnlyBuffersAlike() {
        byte[] bytes = TEXT.getBytes(StandardCharsets.UTF_8);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        assertThat(Utf8Codec.INSTANCE.decodeValue(ByteBuffer.wrap(bytes))).isEqualTo(TEXT);
        assertThat(Utf8Codec.INSTANCE.decodeValue(direct)).isEqualTo(TEXT);
        assertThat(Utf8Codec.INSTANCE.decodeKey(ByteBuffer.wrap(bytes).asReadOnlyBuffer())).isEqualTo(TEXT);
    }

    @Test
    void readsOnlyTheRemainingBytesAndLeavesThePositionAlone() {
        byte[] bytes = ("xx" + TEXT + "yy").getBytes(StandardCharsets.UTF_8);
        ByteBuffer heap = ByteBuffer.wrap(bytes, 2, bytes.length - 4).slice();
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).position(2).limit(bytes.length - 2);
        assertThat(Utf8Codec.INSTANCE.decodeValue(heap)).isEqualTo(TEXT);
        assertThat(heap.position()).isZero();
        assertThat(Utf8Codec.INSTANCE.decodeValue(direct)).isEqualTo(TEXT);
        assertThat(direct.position()).isEqualTo(2);
    }

    @Test
    void anEmptyReplyIsTheEmptyStringAndNoReplyIsNull() {
        assertThat(Utf8Codec.INSTANCE.decodeValue(ByteBuffer.allocate(0))).isEmpty();
        assertThat(Utf8Codec.INSTANCE.decodeValue(null)).isNull();
    }

    @Test
    void encodesAsTheStringCodecDoes() {
        ByteBuffer encoded = Utf8Codec.INSTANCE.encodeValue(TEXT);
        assertThat(Utf8Codec.INSTANCE.decodeValue(encoded)).isEqualTo(TEXT);
    }
}
