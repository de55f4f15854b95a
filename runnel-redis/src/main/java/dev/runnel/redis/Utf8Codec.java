package dev.runnel.redis;

import io.lettuce.core.codec.StringCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Lettuce's UTF-8 string codec, reading replies straight from the buffer Lettuce hands over.
 * {@link StringCodec} wraps each reply string in a Netty buffer view before decoding it, two
 * buffer copies' worth of allocation per string; a claim's reply holds about fourteen strings a
 * job, and that wrapping was most of the client's time decoding it (a CPU-time profile of the
 * jobs-table no-op rows). Encoding is {@link StringCodec}'s own.
 */
final class Utf8Codec extends StringCodec {
    static final Utf8Codec INSTANCE = new Utf8Codec();

    private Utf8Codec() {
        super(StandardCharsets.UTF_8);
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return decode(bytes);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        return decode(bytes);
    }

    /** The buffer's remaining bytes as UTF-8 (null for none), leaving its position where it was. */
    static String decode(ByteBuffer bytes) {
        if (bytes == null) {
            return null;
        }
        int n = bytes.remaining();
        if (n == 0) {
            return "";
        }
        if (bytes.hasArray()) {
            return new String(bytes.array(), bytes.arrayOffset() + bytes.position(), n, StandardCharsets.UTF_8);
        }
        byte[] copy = new byte[n];
        bytes.get(bytes.position(), copy);
        return new String(copy, StandardCharsets.UTF_8);
    }
}
