package dev.runnel.web.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * CSRF tokens: the time a token was issued and a random nonce, with a MAC of the user's name, that
 * time and the nonce under a secret made at startup. Another site can make a browser send a POST
 * but cannot read a page to learn a token, so a POST without one is refused. Every page and every
 * {@code GET /api/session} gets a new token; each stays valid for {@link #LIFETIME}, so a page left
 * open a working day still acts, and a token that leaked (a log, a screenshot) expires. Stateless:
 * no session to keep; a restart changes the secret, and a page open from before gets a 403 and a
 * reload.
 */
final class Csrf {
    static final String FIELD = "_csrf";
    static final String HEADER = "X-CSRF-Token";
    /** How long a token is accepted after it was issued: a working day. */
    static final Duration LIFETIME = Duration.ofHours(12);
    /** A token issued this far ahead of the clock (a clock stepped back) is still taken. */
    private static final Duration SKEW = Duration.ofMinutes(1);
    private static final int NONCE = 8;
    private static final int MAC = 32;

    private final SecretKeySpec key;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    Csrf(byte[] secret, Clock clock) {
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
        this.clock = clock;
    }

    /** A new token for {@code user}, issued now. */
    String token(String user) {
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        long issued = clock.millis();
        ByteBuffer token = ByteBuffer.allocate(Long.BYTES + NONCE + MAC);
        token.putLong(issued).put(nonce).put(mac(user, issued, nonce));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token.array());
    }

    /** Whether {@code candidate} is a token this dashboard issued to {@code user} and it has not expired. */
    boolean valid(String user, String candidate) {
        if (candidate == null) {
            return false;
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(candidate.strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (bytes.length != Long.BYTES + NONCE + MAC) {
            return false;
        }
        ByteBuffer token = ByteBuffer.wrap(bytes);
        long issued = token.getLong();
        byte[] nonce = Arrays.copyOfRange(bytes, Long.BYTES, Long.BYTES + NONCE);
        byte[] mac = Arrays.copyOfRange(bytes, Long.BYTES + NONCE, bytes.length);
        // The MAC first, in constant time: the issued time of a forged token is not to be trusted.
        if (!MessageDigest.isEqual(mac(user, issued, nonce), mac)) {
            return false;
        }
        Instant at = Instant.ofEpochMilli(issued);
        Instant now = clock.instant();
        return !at.isAfter(now.plus(SKEW)) && now.isBefore(at.plus(LIFETIME));
    }

    private byte[] mac(String user, long issued, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(ByteBuffer.allocate(Long.BYTES).putLong(issued).array());
            mac.update(nonce);
            return mac.doFinal(user.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }
}
