package dev.runnel.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The proxy's faults, seen by a plain socket client through it to an echo server. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TcpProxyTest {
    /** Long enough for a loaded machine, short enough that a hang shows as a failure quickly. */
    private static final int PROMPT_MILLIS = 2_000;
    private static final Duration PROMPT = Duration.ofMillis(PROMPT_MILLIS);

    private final List<Socket> clients = new ArrayList<>();
    private EchoServer echo;
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new EchoServer();
        proxy = TcpProxy.start("127.0.0.1", echo.port());
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        proxy.close();
        echo.close();
    }

    @Test
    void bytesRoundTrip() throws IOException {
        Socket client = connect();
        assertThat(roundTrip(client, "hello")).isEqualTo("hello");
        assertThat(roundTrip(client, "again")).isEqualTo("again");
        assertThat(proxy.accepted()).isEqualTo(1);
        assertThat(proxy.open()).isEqualTo(1);
    }

    @Test
    void aLargeTransferArrivesWholeAndHalfClosesPassThrough() throws Exception {
        byte[] sent = new byte[1 << 20];
        new Random(42).nextBytes(sent);
        Socket client = connect();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                client.getOutputStream().write(sent);
                client.shutdownOutput(); // the echo server ends its side on this FIN
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        byte[] received = client.getInputStream().readAllBytes(); // to the echo server's FIN
        writer.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);

        assertThat(Arrays.equals(received, sent)).as("the echo matches what was sent").isTrue();
        Await.until("the connection is forgotten", PROMPT, () -> proxy.open() == 0);
        assertThat(proxy.dropped()).isZero();
    }

    @Test
    void dropAllResetsABlockedReadAtOnceAndNewConnectionsStillWork() throws Exception {
        Socket client = connect();
        roundTrip(client, "hello");
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> readOutcome(client));
        Thread.sleep(50); // let the read block

        long start = System.nanoTime();
        proxy.dropAll();

        assertThat(read.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("reset");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PROMPT);
        assertThat(proxy.dropped()).isEqualTo(1);
        assertThat(proxy.open()).isZero();
        Await.until("the echo server sees its connection end", PROMPT, () -> echo.open() == 0);

        assertThat(roundTrip(connect(), "after")).isEqualTo("after");
        assertThat(proxy.accepted()).isEqualTo(2);
    }

    @Test
    void aStallSwallowsBytesUntilTheClientTimesOutAndUnstallResetsTheStalledConnections() throws IOException {
        Socket before = connect();
        roundTrip(before, "hello");
        proxy.stall();

        before.setSoTimeout(300);
        assertThatCode(() -> write(before, "anyone there?")).doesNotThrowAnyException();
        assertThatThrownBy(() -> before.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

        Socket during = connect(); // a new connection is a black hole too, and never reaches the target
        during.setSoTimeout(150);
        assertThatCode(() -> write(during, "hello?")).doesNotThrowAnyException();
        assertThatThrownBy(() -> during.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
        assertThat(echo.accepted()).isEqualTo(1);
        assertThat(proxy.open()).isEqualTo(2);
        assertThat(proxy.dropped()).isZero();

        proxy.unstall();

        assertThat(readOutcome(before)).isEqualTo("reset");
        assertThat(readOutcome(during)).isEqualTo("reset");
        assertThat(proxy.dropped()).isEqualTo(2);
        assertThat(proxy.open()).isZero();
        assertThat(roundTrip(connect(), "after")).isEqualTo("after");
    }

    @Test
    void refuseNewResetsNewConnectionsAndLeavesOpenOnesAlone() throws IOException {
        Socket open = connect();
        roundTrip(open, "hello");
        proxy.refuseNew(true);

        Socket refused = connect(); // the handshake is the kernel's: refusal shows on the first read
        assertThat(readOutcome(refused)).isEqualTo("reset");
        assertThat(roundTrip(open, "still here")).isEqualTo("still here");
        assertThat(proxy.refused()).isEqualTo(1);
        assertThat(proxy.accepted()).isEqualTo(1);

        proxy.refuseNew(false);
        assertThat(roundTrip(connect(), "after")).isEqualTo("after");
        assertThat(roundTrip(open, "and here")).isEqualTo("and here");
    }

    @Test
    void anOutageDropsEverythingAndRefusesNewConnectionsUntilItEnds() throws IOException {
        Socket client = connect();
        roundTrip(client, "hello");

        long start = System.nanoTime();
        proxy.outage(Duration.ofMillis(500));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("outage returns at once")
                .isLessThan(Duration.ofMillis(100));

        assertThat(readOutcome(client)).isEqualTo("reset");
        assertThat(readOutcome(connect())).as("a reconnect during the outage").isEqualTo("reset");
        Await.until("a connection works again", PROMPT, () -> {
            try (Socket next = connect()) {
                return roundTrip(next, "back").equals("back");
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(proxy.dropped()).isEqualTo(1);
        assertThat(proxy.refused()).isPositive();
    }

    @Test
    void aTargetThatIsDownResetsTheClient() throws IOException {
        int deadPort;
        try (ServerSocket reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = reserved.getLocalPort();
        }
        try (TcpProxy nowhere = TcpProxy.start("127.0.0.1", deadPort);
                Socket client = new Socket("127.0.0.1", nowhere.port())) {
            client.setSoTimeout(PROMPT_MILLIS);
            assertThat(readOutcome(client)).isEqualTo("reset");
            Await.until("the connection is forgotten", PROMPT, () -> nowhere.open() == 0);
        }
    }

    @Test
    void closeEndsEveryConnectionAndThreadAndReleasesThePort() throws IOException {
        Socket client = connect();
        roundTrip(client, "hello");
        int port = proxy.port();

        proxy.close();
        proxy.close();

        assertThat(readOutcome(client)).isEqualTo("reset");
        assertThat(proxy.open()).isZero();
        Await.until("the proxy's threads end", PROMPT, () -> proxy.liveThreads() == 0);
        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    private Socket connect() throws IOException {
        Socket client = new Socket("127.0.0.1", proxy.port());
        client.setSoTimeout(PROMPT_MILLIS);
        clients.add(client);
        return client;
    }

    private static void write(Socket client, String text) throws IOException {
        client.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String roundTrip(Socket client, String text) throws IOException {
        write(client, text);
        byte[] answer = client.getInputStream().readNBytes(text.getBytes(StandardCharsets.UTF_8).length);
        return new String(answer, StandardCharsets.UTF_8);
    }

    /** What a read of {@code client} ends in: "data", "EOF", "reset" or "timeout". */
    private static String readOutcome(Socket client) {
        try {
            return client.getInputStream().read() < 0 ? "EOF" : "data";
        } catch (SocketTimeoutException e) {
            return "timeout";
        } catch (SocketException e) {
            return "reset";
        } catch (IOException e) {
            return "failed: " + e;
        }
    }

    /** Echoes every connection's bytes back, and ends its side when the client ends its own. */
    private static final class EchoServer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        private final List<Socket> connections = new ArrayList<>();
        private final AtomicInteger accepted = new AtomicInteger();
        private final AtomicInteger open = new AtomicInteger();

        EchoServer() throws IOException {
            Thread.ofVirtual().name("echo-accept").start(this::acceptLoop);
        }

        int port() {
            return listener.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        int open() {
            return open.get();
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket connection = listener.accept();
                    synchronized (connections) {
                        connections.add(connection);
                    }
                    accepted.incrementAndGet();
                    open.incrementAndGet();
                    Thread.ofVirtual().name("echo").start(() -> echo(connection));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void echo(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    connection.getOutputStream().write(buffer, 0, n);
                }
            } catch (IOException e) {
                // reset: done
            } finally {
                open.decrementAndGet();
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            synchronized (connections) {
                for (Socket connection : connections) {
                    connection.close();
                }
            }
        }
    }
}
