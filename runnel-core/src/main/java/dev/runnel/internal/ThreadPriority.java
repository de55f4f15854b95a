package dev.runnel.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the Linux nice value of the calling platform thread, through the Foreign Function &amp;
 * Memory API: {@code setpriority(PRIO_PROCESS, gettid(), nice)}. On Linux each thread is its own
 * scheduling entity and {@code setpriority} with a thread id changes that thread alone (POSIX
 * would have it change the whole process; Linux does not).
 *
 * <p>The native functions are looked up once, the first time a thread asks; a client whose queues
 * all run on virtual threads never touches native code. Where it is unsupported (not Linux, a libc
 * without the functions, native access denied) or the call fails, it says so once in the log and
 * the thread keeps its priority.
 */
public final class ThreadPriority {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadPriority.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static final int PRIO_PROCESS = 0;

    private ThreadPriority() {}

    /**
     * Sets the calling thread's nice value to {@code nice}; true when it was set. Must be called on
     * a platform thread (on a virtual thread it would lower a carrier shared by others, so it is
     * refused).
     */
    public static boolean setCurrentThreadNice(int nice) {
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("the nice value of a virtual thread's carrier is not the thread's own");
        }
        Native calls = Native.INSTANCE;
        if (calls.unavailable != null) {
            warnOnce(calls.unavailable);
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Native.CAPTURE);
            int tid = (int) calls.gettid.invokeExact();
            int rc = (int) calls.setpriority.invokeExact(state, PRIO_PROCESS, tid, nice);
            if (rc != 0) {
                int errno = (int) Native.ERRNO.get(state, 0L);
                warnOnce("setpriority(PRIO_PROCESS, " + tid + ", " + nice + ") failed with errno " + errno
                        + (errno == 13 ? " (EACCES: raising priority needs CAP_SYS_NICE)" : ""));
                return false;
            }
            return true;
        } catch (Throwable t) {
            warnOnce("setpriority failed: " + t);
            return false;
        }
    }

    /** Why thread priorities cannot be set here, or empty when they can (as far as looking up the functions tells). */
    public static java.util.Optional<String> unsupportedReason() {
        return java.util.Optional.ofNullable(Native.INSTANCE.unavailable);
    }

    private static void warnOnce(String why) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("job thread priority cannot be lowered here ({}); jobs run at normal priority", why);
        }
    }

    /** The downcall handles, made once; or why they could not be. */
    private static final class Native {
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CAPTURE.varHandle(
                java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
        static final Native INSTANCE = new Native();

        final MethodHandle setpriority;
        final MethodHandle gettid;
        /** Null when both handles are there. */
        final String unavailable;

        private Native() {
            MethodHandle set = null;
            MethodHandle tid = null;
            String why = null;
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
                why = "per-thread nice values are Linux only; this is " + System.getProperty("os.name");
            } else {
                try {
                    Linker linker = Linker.nativeLinker();
                    SymbolLookup libc = linker.defaultLookup();
                    set = linker.downcallHandle(libc.find("setpriority").orElseThrow(),
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT),
                            Linker.Option.captureCallState("errno"));
                    tid = gettid(linker, libc);
                    if (tid == null) {
                        why = "libc has no gettid and the syscall number of " + System.getProperty("os.arch")
                                + " is not known";
                        set = null;
                    }
                } catch (RuntimeException | LinkageError e) {
                    // IllegalCallerException when native access is denied (--illegal-native-access=deny).
                    why = "native calls unavailable: " + e;
                    set = null;
                    tid = null;
                }
            }
            this.setpriority = set;
            this.gettid = tid;
            this.unavailable = why;
        }

        /** {@code gettid()} from libc (glibc 2.30, musl 1.2.2), else {@code syscall(SYS_gettid)} where its number is known. */
        private static MethodHandle gettid(Linker linker, SymbolLookup libc) {
            var direct = libc.find("gettid");
            if (direct.isPresent()) {
                return linker.downcallHandle(direct.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT));
            }
            long number = switch (System.getProperty("os.arch", "")) {
                case "amd64", "x86_64" -> 186;
                case "aarch64" -> 178;
                default -> -1;
            };
            var syscall = libc.find("syscall");
            if (number < 0 || syscall.isEmpty()) {
                return null;
            }
            MethodHandle call = linker.downcallHandle(syscall.get(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.firstVariadicArg(1));
            MethodHandle bound = java.lang.invoke.MethodHandles.insertArguments(call, 0, number);
            // Thread ids fit in an int (pid_t): narrow the long the syscall returns.
            return java.lang.invoke.MethodHandles.explicitCastArguments(bound,
                    java.lang.invoke.MethodType.methodType(int.class));
        }
    }
}
