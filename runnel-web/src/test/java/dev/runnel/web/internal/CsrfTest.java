package dev.runnel.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** CSRF tokens: each new, each valid for its user until it expires, none forgeable. */
class CsrfTest {
    /** A clock the test moves. */
    private static final class Moving extends Clock {
        Instant now = Instant.parse("2030-01-01T09:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final Moving clock = new Moving();
    private final Csrf csrf = new Csrf(new byte[32], clock);

    @Test
    void aTokenIsValidForItsUserUntilItExpires() {
        String token = csrf.token("ops");
        assertThat(csrf.valid("ops", token)).isTrue();
        assertThat(csrf.valid("other", token)).isFalse();
        clock.now = clock.now.plus(Csrf.LIFETIME).minusSeconds(1);
        assertThat(csrf.valid("ops", token)).isTrue();
        clock.now = clock.now.plusSeconds(1);
        assertThat(csrf.valid("ops", token)).isFalse();
        // A new one is issued at every page, and the old ones stay valid meanwhile.
        String later = csrf.token("ops");
        assertThat(later).isNotEqualTo(token);
        assertThat(csrf.valid("ops", later)).isTrue();
    }

    @Test
    void everyTokenIsNewAndTheEarlierOnesStayValid() {
        String a = csrf.token("ops");
        String b = csrf.token("ops");
        assertThat(a).isNotEqualTo(b);
        assertThat(csrf.valid("ops", a)).isTrue();
        assertThat(csrf.valid("ops", b)).isTrue();
    }

    @Test
    void aForgedTamperedOrForeignTokenIsRefused() {
        String token = csrf.token("ops");
        byte[] bytes = Base64.getUrlDecoder().decode(token);
        // A later issued time, to outlive the lifetime: the MAC no longer matches.
        bytes[5]++;
        assertThat(csrf.valid("ops", Base64.getUrlEncoder().withoutPadding().encodeToString(bytes))).isFalse();
        assertThat(csrf.valid("ops", null)).isFalse();
        assertThat(csrf.valid("ops", "")).isFalse();
        assertThat(csrf.valid("ops", "not base64 !")).isFalse();
        assertThat(csrf.valid("ops", token.substring(0, token.length() - 2))).isFalse();
        byte[] otherSecret = new byte[32];
        otherSecret[0] = 1;
        assertThat(csrf.valid("ops", new Csrf(otherSecret, clock).token("ops"))).isFalse();
        // Issued in the future (a clock far ahead): refused too.
        clock.now = clock.now.plus(Duration.ofHours(1));
        String ahead = csrf.token("ops");
        clock.now = clock.now.minus(Duration.ofHours(1));
        assertThat(csrf.valid("ops", ahead)).isFalse();
    }
}
