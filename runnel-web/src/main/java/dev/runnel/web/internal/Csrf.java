package dev.runnel.web.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * CSRF tokens: a MAC of the user's name under a secret made at startup. Another site can make a
 * browser send a POST but cannot read a page to learn the token, so a POST without it is refused.
 * Stateless: no session to keep; a restart changes the secret, and a page open from before gets a
 * 403 and a reload.
 */
final class Csrf {
    static final String FIELD = "_csrf";
    static final String HEADER = "X-CSRF-Token";

    private final SecretKeySpec key;

    Csrf(byte[] secret) {
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    String token(String user) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(user.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    boolean valid(String user, String candidate) {
        return candidate != null && MessageDigest.isEqual(token(user).getBytes(StandardCharsets.US_ASCII),
                candidate.getBytes(StandardCharsets.US_ASCII));
    }
}
