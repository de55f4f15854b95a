package dev.runnel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcCpuTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void theJitCompilerThreadsOfThisJvmHaveSpentPartOfItsCpu() {
        double jit = ProcCpu.threadsMillis(SELF, "C1 CompilerThre", "C2 CompilerThre");
        double all = ProcCpu.millis(SELF);
        // A test JVM has compiled its share of code by now: at least one 10 ms tick of it.
        assertThat(jit).isPositive().isLessThanOrEqualTo(all);
    }

    @Test
    void threadsOfNoSuchNameHaveSpentNothingAndAProcessThatIsGoneReadsAsUnavailable() {
        assertThat(ProcCpu.threadsMillis(SELF, "no such thread")).isZero();
        assertThat(ProcCpu.threadsMillis(Long.MAX_VALUE, "C2 CompilerThre")).isEqualTo(-1);
    }
}
