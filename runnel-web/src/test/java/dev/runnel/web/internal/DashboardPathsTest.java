package dev.runnel.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code back} a form may redirect to: a path of the dashboard at its mount point, nothing else. */
class DashboardPathsTest {
    @Test
    void onlyPathsUnderTheBaseAreOwn() {
        for (String base : List.of("", "/ops/runnel")) {
            assertThat(Dashboard.isOwnPath(base, base + "/jobs")).as(base).isTrue();
            assertThat(Dashboard.isOwnPath(base, base + "/jobs?state=scheduled&back=//x")).as(base).isTrue();
            assertThat(Dashboard.isOwnPath(base, base + "/")).as(base).isTrue();
            for (String bad : List.of(base + "//evil.example", base + "/\\evil.example", base + "/..", base + "/jobs/../..",
                    base + "/%2E%2e/x", base + "/jobs\nx", base + "/jobs\u007f", "//evil.example" + base + "/jobs",
                    "https://evil.example" + base + "/jobs", base, base + "x/jobs", "jobs", "")) {
                assertThat(Dashboard.isOwnPath(base, bad)).as(base + " " + bad).isFalse();
            }
        }
        assertThat(Dashboard.isOwnPath("/ops/runnel", "/ops/other")).isFalse();
        assertThat(Dashboard.isOwnPath("/ops/runnel", "/jobs")).isFalse();
    }
}
