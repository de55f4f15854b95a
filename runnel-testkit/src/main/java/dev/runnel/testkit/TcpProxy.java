package dev.runnel.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 that a test puts between a client and a real server to break the
 * network on purpose: reset every connection, black-hole the traffic, refuse new connections. A
 * mocked driver cannot show how a real client library and connection pool react to those; this
 * can, with the real protocol on the wire.
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start("127.0.0.1", 5432)) {
 *     // point the client at 127.0.0.1:proxy.port(), then
 *     proxy.outage(Duration.ofSeconds(10)); // the database is unreachable for 10 s
 * }
 * }</pre>
 *
 * <p>Every method may be called from any thread while traffic flows. Each connection costs two
 * virtual threads, one a direction; they end when the connection does, and all of them by
 * {@link #close()}.
 */
public final class TcpProxy implements AutoCloseable {
    /** Bounds how long a connection waits for the target; the target is expected to be local. */
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int BUFFER_SIZE = 16 * 1024;

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Object lock = new Object();
    /** The connections not yet ended, guarded by {@link #lock}. */
    private final Set<Link> links = new HashSet<>();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicInteger liveThreads = new AtomicInteger();
    private final AtomicInteger linkIds = new AtomicInteger();
    // Guarded by lock.
    private boolean closed;
    private boolean stalled;
    private boolean refusing;
    /** {@link System#nanoTime()} until which new connections are refused. */
    private long refuseUntil = System.nanoTime();

    private TcpProxy(InetSocketAddress target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
    }

    /**
     * Starts a proxy to {@code targetHost:targetPort} on an ephemeral port of 127.0.0.1. The target
     * is connected to once for every connection the proxy accepts, so it need not be up yet.
     */
    public static TcpProxy start(String targetHost, int targetPort) {
        InetSocketAddress target = new InetSocketAddress(targetHost, targetPort);
        ServerSocket listener;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on 127.0.0.1: " + e.getMessage(), e);
        }
        TcpProxy proxy = new TcpProxy(target, listener);
        proxy.spawn("accept", proxy::acceptLoop);
        return proxy;
    }

    /** The port to point the client at, on 127.0.0.1. */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Resets every open connection on both sides at once, as a crashed server or a broken network
     * path would: the client sees "connection reset" rather than waiting for a timeout. New
     * connections are accepted afterwards as before.
     */
    public void dropAll() {
        List<Link> victims;
        synchronized (lock) {
            victims = new ArrayList<>(links);
            links.clear();
        }
        for (Link link : victims) {
            if (link.end(true)) {
                dropped.incrementAndGet();
            }
        }
    }

    /**
     * Turns every connection, open or new, into a black hole, as a network partition does: bytes
     * either way are read and thrown away, so the sender's writes succeed but no answer ever comes,
     * and no reset or FIN is sent. Only the client's own socket timeout ends its wait. A new
     * connection still connects at once (the operating system completes the handshake), so a
     * connect timeout does not fire, but it never reaches the target. A stalled connection stays
     * open, even after the client gives up on it, until {@link #unstall()}, {@link #dropAll()} or
     * {@link #close()}.
     */
    public void stall() {
        synchronized (lock) {
            stalled = true;
            for (Link link : links) {
                link.stalled = true;
            }
        }
    }

    /**
     * Ends {@link #stall()}: new connections are forwarded again. Every connection that was open
     * at any time during the stall is reset, on both sides, and counted as {@link #dropped()}:
     * after bytes were thrown away its stream is corrupt, and no protocol could resume on it.
     */
    public void unstall() {
        List<Link> victims = new ArrayList<>();
        synchronized (lock) {
            stalled = false;
            for (Link link : links) {
                if (link.stalled) {
                    victims.add(link);
                }
            }
            victims.forEach(links::remove);
        }
        for (Link link : victims) {
            if (link.end(true)) {
                dropped.incrementAndGet();
            }
        }
    }

    /**
     * While {@code refuse} is true, every new connection is reset as soon as it is accepted, as by
     * a server that is down, and counted as {@link #refused()}; open connections are left alone.
     * The operating system has already completed the client's TCP handshake, so the client sees
     * the reset on its first read (or write), not on connect. {@code false} also ends a
     * {@link #refuseFor(Duration)} or {@link #outage(Duration)} early.
     */
    public void refuseNew(boolean refuse) {
        synchronized (lock) {
            refusing = refuse;
            if (!refuse) {
                refuseUntil = System.nanoTime();
            }
        }
    }

    /**
     * Refuses new connections, as {@link #refuseNew(boolean)}, for {@code duration} from now, and
     * returns at once. Overlapping calls extend the refusal to the latest end.
     */
    public void refuseFor(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        synchronized (lock) {
            if (until - refuseUntil > 0) {
                refuseUntil = until;
            }
        }
    }

    /**
     * The server becomes unreachable for {@code duration}: every open connection is reset
     * ({@link #dropAll()}) and new ones are refused until {@code duration} has passed
     * ({@link #refuseFor(Duration)}). Returns at once, so the test can watch the client ride it
     * out.
     */
    public void outage(Duration duration) {
        refuseFor(duration); // first, so that a client's immediate reconnect is refused too
        dropAll();
    }

    /** Connections taken in and forwarded (or stalled) so far, refused ones not included. */
    public long accepted() {
        return accepted.get();
    }

    /** Connections reset by {@link #dropAll()}, {@link #outage(Duration)} or {@link #unstall()}. */
    public long dropped() {
        return dropped.get();
    }

    /** Connections reset on accept because new ones were being refused. */
    public long refused() {
        return refused.get();
    }

    /** Connections open now: accepted, and ended neither by either side nor by a fault. */
    public int open() {
        synchronized (lock) {
            return links.size();
        }
    }

    /** The proxy's threads still running; zero soon after {@link #close()}. For its own tests. */
    int liveThreads() {
        return liveThreads.get();
    }

    /** Stops listening and resets every connection. Idempotent. */
    @Override
    public void close() {
        List<Link> victims;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            victims = new ArrayList<>(links);
            links.clear();
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // Closing is all that was asked; the socket is unusable either way.
        }
        for (Link link : victims) {
            link.end(true);
        }
    }

    @Override
    public String toString() {
        return "TcpProxy[127.0.0.1:" + port() + " -> " + target + "]";
    }

    private void acceptLoop() {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
                pause(); // e.g. out of file descriptors: retry, but without spinning
                continue;
            }
            Link link = null;
            synchronized (lock) {
                if (closed) {
                    reset(client);
                    return;
                }
                if (refusing || refuseUntil - System.nanoTime() > 0) {
                    refused.incrementAndGet();
                } else {
                    link = new Link(client, stalled);
                    links.add(link);
                    accepted.incrementAndGet();
                }
            }
            if (link == null) {
                reset(client);
            } else {
                spawn(link.id + "-up", link::run);
            }
        }
    }

    private void spawn(String name, Runnable task) {
        liveThreads.incrementAndGet();
        try {
            Thread.ofVirtual().name("tcp-proxy-" + port() + "-" + name).start(() -> {
                try {
                    task.run();
                } finally {
                    liveThreads.decrementAndGet();
                }
            });
        } catch (RuntimeException | Error e) {
            liveThreads.decrementAndGet();
            throw e;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes {@code socket} with a TCP reset rather than a FIN: SO_LINGER 0 discards unsent data. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // Already closed: nothing left to reset.
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // The socket is released either way.
        }
    }

    /** One accepted connection and its own connection to the target. */
    private final class Link {
        final int id = linkIds.incrementAndGet();
        final Socket client;
        /** Created here, connected later, so that ending the link also aborts a pending connect. */
        final Socket server = new Socket();
        /** Set by stall(), never cleared: such a link only waits to be reset. */
        volatile boolean stalled;
        private final AtomicBoolean ended = new AtomicBoolean();
        /** Directions not yet at end of stream; at zero the link has closed cleanly. */
        private final AtomicInteger openDirections = new AtomicInteger(2);

        Link(Socket client, boolean stalled) {
            this.client = client;
            this.stalled = stalled;
        }

        /** Connects to the target and pumps client to server; a second thread pumps the other way. */
        void run() {
            if (stalled) {
                pump(client, null); // a black hole from the start: swallow, never reach the target
                return;
            }
            try {
                server.connect(target, CONNECT_TIMEOUT_MILLIS);
                server.setTcpNoDelay(true);
                client.setTcpNoDelay(true);
            } catch (IOException e) {
                end(true); // the client sees a reset, as it would from the target itself
                return;
            }
            spawn(id + "-down", () -> pump(server, client));
            pump(client, server);
        }

        /** Copies {@code from} to {@code to} (nowhere when {@code to} is null) until either fails. */
        private void pump(Socket from, Socket to) {
            byte[] buffer = new byte[BUFFER_SIZE];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to == null ? null : to.getOutputStream();
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (!stalled && out != null) {
                        out.write(buffer, 0, n);
                    }
                }
                if (stalled || to == null) {
                    return; // a black hole passes on no FIN either; unstall() or close() ends it
                }
                to.shutdownOutput(); // pass the half-close on: the other direction may go on
                if (openDirections.decrementAndGet() == 0) {
                    end(false);
                }
            } catch (IOException e) {
                if (!stalled) {
                    end(true); // pass a reset or failure on to the other side as a reset
                }
            }
        }

        /**
         * Ends the link once, with a reset when {@code abort}, else with a plain close; true if this
         * call ended it.
         */
        boolean end(boolean abort) {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            synchronized (lock) {
                links.remove(this);
            }
            if (abort) {
                reset(client);
                reset(server);
            } else {
                closeQuietly(client);
                closeQuietly(server);
            }
            return true;
        }
    }
}
