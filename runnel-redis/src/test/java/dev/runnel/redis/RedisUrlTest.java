package dev.runnel.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RedisUrlTest {
    @Test
    void defaultsAreTheLocalPortDatabaseZeroAndTheRunnelNamespace() {
        RedisUrl url = RedisUrl.parse("redis://127.0.0.1");
        assertThat(url.host()).isEqualTo("127.0.0.1");
        assertThat(url.port()).isEqualTo(6379);
        assertThat(url.database()).isZero();
        assertThat(url.prefix()).isEqualTo("runnel");
        assertThat(url.tls()).isFalse();
        assertThat(url.password()).isNull();
    }

    @Test
    void everyPartIsRead() {
        RedisUrl url = RedisUrl.parse("rediss://app:p%40ss%2Fw@cache.example:6380/3?prefix=billing-jobs");
        assertThat(url.tls()).isTrue();
        assertThat(url.user()).isEqualTo("app");
        assertThat(url.password()).isEqualTo("p@ss/w");
        assertThat(url.host()).isEqualTo("cache.example");
        assertThat(url.port()).isEqualTo(6380);
        assertThat(url.database()).isEqualTo(3);
        assertThat(url.prefix()).isEqualTo("billing-jobs");
        assertThat(url.where()).doesNotContain("p@ss").contains("cache.example:6380/3");
        assertThat(RedisUrl.parse("redis://secret@h:1/0").password()).isEqualTo("secret");
        assertThat(RedisUrl.parse("redis://[::1]:7000/0").host()).isEqualTo("::1");
    }

    @Test
    void malformedUrlsAreRefusedNamingThePartAndNeverThePassword() {
        assertThatThrownBy(() -> RedisUrl.parse("http://h:1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redis://");
        assertThatThrownBy(() -> RedisUrl.parse("redis://u:hunter2@h:99999/0")).hasMessageContaining("port")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RedisUrl.parse("redis://h:6379/16")).hasMessageContaining("database");
        assertThatThrownBy(() -> RedisUrl.parse("redis://h:6379/x")).hasMessageContaining("database");
        assertThatThrownBy(() -> RedisUrl.parse("redis://h:6379/0?prefix={a}")).hasMessageContaining("prefix");
        assertThatThrownBy(() -> RedisUrl.parse("redis://h:6379/0?prefix=a:b")).hasMessageContaining("prefix");
        assertThatThrownBy(() -> RedisUrl.parse("redis://h:6379/0?schema=x")).hasMessageContaining("unknown");
        assertThatThrownBy(() -> RedisUrl.parse("redis://:6379/0")).hasMessageContaining("host");
    }

    @Test
    void theCallTimeoutIsTenSecondsUnlessTheUrlSaysOtherwise() {
        assertThat(RedisUrl.parse("redis://h").timeout()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThat(RedisUrl.parse("redis://h/0?timeout=500ms").timeout()).isEqualTo(java.time.Duration.ofMillis(500));
        assertThat(RedisUrl.parse("redis://h/0?prefix=a&timeout=3s").timeout()).isEqualTo(java.time.Duration.ofSeconds(3));
        for (String bad : new String[] {"0s", "99ms", "601s", "5", "1m", "", "-1s"}) {
            assertThatThrownBy(() -> RedisUrl.parse("redis://u:hunter2@h/0?timeout=" + bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout must be a duration")
                    .hasMessageNotContaining("hunter2");
        }
    }

    @Test
    void aPrefixWithABraceIsRefusedBecauseItWouldSpreadTheNamespaceOverClusterSlots() {
        for (String prefix : new String[] {"{a}", "a{b", "a}b", "}", "%7Bjobs%7D"}) {
            assertThatThrownBy(() -> RedisUrl.parse("redis://u:hunter2@h:6379/0?prefix=" + prefix))
                    .as(prefix).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must not contain '{' or '}'").hasMessageContaining("hash tag")
                    .hasMessageContaining("slots").hasMessageNotContaining("hunter2");
        }
        assertThat(RedisKeys.prefix(RedisUrl.parse("redis://h:6379/0?prefix=a.b-c_d").prefix())).isEqualTo("{a.b-c_d}:");
    }

    @Test
    void sortableTimesOrderAsTheTimesDo() {
        long[] times = {Long.MIN_VALUE, -1_000_000, -1, 0, 1, 1_893_456_000_000_000L, Long.MAX_VALUE};
        for (int i = 1; i < times.length; i++) {
            assertThat(RedisEncoding.sortable(times[i - 1]).compareTo(RedisEncoding.sortable(times[i]))).isNegative();
            assertThat(RedisEncoding.sortable(times[i])).hasSize(16);
        }
    }
}
