package dev.runnel.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The local HTTP server of the jobs table's HTTP rows: {@code GET /hello} sleeps 200 ms and answers.
 * It runs in a JVM of its own, as the reference run's server did, so that the CPU and memory measured are
 * the job client's alone. It prints {@code port N} once listening and stops when its stdin closes.
 */
public final class SleepServer implements AutoCloseable {
    /** How long each request takes: the reference run's 200 ms. */
    public static final Duration SLEEP = Duration.ofMillis(200);
    private static final byte[] BODY = "Hello World!".getBytes(StandardCharsets.UTF_8);

    private final Process process;
    private final int port;

    private SleepServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the server JVM and waits until it listens. */
    static SleepServer start() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                SleepServer.class.getName())).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (line == null || !line.startsWith("port ")) {
            p.destroyForcibly();
            throw new IOException("the HTTP sleep server did not start (said " + line + ")");
        }
        return new SleepServer(p, Integer.parseInt(line.substring(5).strip()));
    }

    int port() {
        return port;
    }

    @Override
    public void close() {
        process.destroy();
    }

    void awaitExit(long millis) throws InterruptedException {
        process.waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    public static void main(String[] args) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1_000);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hello", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                Thread.sleep(SLEEP);
                exchange.sendResponseHeaders(200, BODY.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(BODY);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        System.out.println("port " + server.getAddress().getPort());
        System.out.flush();
        // Until the parent goes away: it closes our stdin, or dies and the pipe closes.
        while (System.in.read() >= 0) {
            // ignore input
        }
        server.stop(0);
    }
}
