package dev.runnel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DriversTest {
    @Test
    void redactHidesEveryPassword() {
        assertThat(Drivers.redact("postgres://u:secret@h:5432/db")).isEqualTo("postgres://u:***@h:5432/db");
        assertThat(Drivers.redact("postgres://u:pa/ss@h/db")).doesNotContain("pa/ss").contains("u:***@h/db");
        assertThat(Drivers.redact("postgres://u:p@ss@h/db")).doesNotContain("ss@h").isEqualTo("postgres://u:***@h/db");
        assertThat(Drivers.redact("postgres://h/db?user=u&password=hunter2")).doesNotContain("hunter2");
        assertThat(Drivers.redact("sqlite://jobs.db")).isEqualTo("sqlite://jobs.db");
    }

    @Test
    void malformedOrUnknownUrlsAreIllegalArguments() {
        assertThatThrownBy(() -> Drivers.open("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Drivers.open("no scheme")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Drivers.open("nope://x")).hasMessageContaining("nope");
    }
}
