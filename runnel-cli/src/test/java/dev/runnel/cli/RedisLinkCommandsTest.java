package dev.runnel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.cli.Cli.Result;
import dev.runnel.testkit.LocalRedis;
import org.junit.jupiter.api.Test;

/**
 * {@code runnel workflows} and {@code runnel batches} on a Redis namespace: Redis stores neither,
 * so every listing is empty (an empty JSON array), every workflow and batch is missing, and the
 * commands say why.
 */
class RedisLinkCommandsTest extends LinkCommandsScenario {
    private final String url = LocalRedis.shared().freshUrl();

    @Override
    protected String url() {
        return url;
    }

    @Test
    void theCommandsSayThatRedisStoresNone() {
        assertThat(run("workflows", "list").out()).contains("(no workflows: this redis database stores none)");
        assertThat(run("batches", "list").out()).contains("(no batches: this redis database stores none)");
        for (String[] command : new String[][] {{"workflows", "get", "5"}, {"workflows", "cancel", "5"},
                {"workflows", "retry", "5"}}) {
            Result r = run(command);
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).isEqualTo("runnel: no workflow 5 (this redis database stores no workflows)\n");
        }
        assertThat(run("batches", "get", "5").err()).isEqualTo("runnel: no batch 5 (this redis database stores no batches)\n");
    }
}
