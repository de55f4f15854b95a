package dev.runnel.web;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the dashboard logs while it is open: slf4j-simple writes to whatever {@code System.err} is
 * at the time of each line, so this stands in for it (and still passes every line on).
 */
final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (captured) {
                    captured.write(b, off, len);
                }
                original.write(b, off, len);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** The lines logged so far that contain {@code text}. */
    List<String> lines(String text) {
        String all;
        synchronized (captured) {
            all = captured.toString(StandardCharsets.UTF_8);
        }
        return all.lines().filter(l -> l.contains(text)).toList();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
