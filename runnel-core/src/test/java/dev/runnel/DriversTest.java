package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DriversTest {
    @Test
    void redactHidesEveryPassword() {
        assertThat(Drivers.redact("postgres://u:secret@h:5432/db")).isEqualTo("postgres://u:***@h:5432/db");
        assertThat(Drivers.redact("postgres://u:pa/ss@h/db")).doesNotContain("pa/ss").contains("u:***@h/db");
        assertThat(Drivers.redact("postgres://u:p@ss@h/db")).doesNotContain("ss@h").isEqualTo("postgres://u:***@h/db");
        assertThat(Drivers.redact("postgres://u:a/b@c@h/d")).isEqualTo("postgres://u:***@h/d");
        assertThat(Drivers.redact("postgres://u:p?ss#w@h/db?sslmode=require"))
                .isEqualTo("postgres://u:***@h/db?sslmode=require");
        assertThat(Drivers.redact("postgres://h/db?user=u&password=hunter2")).doesNotContain("hunter2");
        assertThat(Drivers.redact("postgres://u@h/d?password=x&sslmode=require&sslpassword=y&PassWord=z"))
                .isEqualTo("postgres://u@h/d?password=***&sslmode=require&sslpassword=***&PassWord=***");
    }

    @Test
    void redactHidesThePasswordsOfAUrlInAParameterPlainOrEncoded() {
        assertThat(Drivers.redact("postgres://u:outer@h/db?listen_url=postgres://l:inner@direct/db&sslmode=require"))
                .isEqualTo("postgres://u:***@h/db?listen_url=postgres://l:***@direct/db&sslmode=require");
        // A password in the listen_url, and none in the outer URL, whose host has a port.
        assertThat(Drivers.redact("postgres://h:5432/db?listen_url=postgres://l:inner@direct/db"))
                .isEqualTo("postgres://h:5432/db?listen_url=postgres://l:***@direct/db");
        String encoded = URLEncoder.encode("postgres://l:inner@direct:5432/d?sslmode=require&password=more",
                StandardCharsets.UTF_8);
        String redacted = Drivers.redact("postgres://u:outer@h/db?listen_url=" + encoded + "&schema=jobs");
        assertThat(redacted).doesNotContain("outer").doesNotContain("inner").doesNotContain("more")
                .startsWith("postgres://u:***@h/db?listen_url=").endsWith("&schema=jobs").contains("direct");
        // Undecodable, it might hide a password anywhere: none of it is shown.
        assertThat(Drivers.redact("postgres://h/db?listen_url=postgres%3A%2F%2Fl%3Ainner%40x%zz"))
                .isEqualTo("postgres://h/db?listen_url=***");
    }

    @Test
    void redactLeavesUrlsWithoutPasswordsAsTheyAre() {
        for (String url : new String[] {"postgres://h/d", "postgres://u@h:5432/db?schema=s&sslmode=require",
                "postgres://h:5432/db?listen_url=postgres%3A%2F%2Fdirect%2Fdb", "sqlite://jobs.db", "sqlite://:memory:",
                "sqlite:///var/lib/runnel/jobs.db?busy=fair", "sqlite://jobs.db#x", "no scheme"}) {
            assertThat(Drivers.redact(url)).isEqualTo(url);
        }
    }

    @Test
    void malformedOrUnknownUrlsAreIllegalArguments() {
        assertThatThrownBy(() -> Drivers.open("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Drivers.open("no scheme")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Drivers.open("nope://x")).hasMessageContaining("nope");
        assertThatThrownBy(() -> Drivers.open("nope://u:hunter2@x")).hasMessageNotContaining("hunter2");
    }
}
