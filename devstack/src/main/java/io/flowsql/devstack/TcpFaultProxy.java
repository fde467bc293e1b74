package io.flowsql.devstack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 for fault tests: it forwards every connection to one target and can make the network slow
 * ({@link #delay}: each chunk waits before it is passed on, both ways) or stalled ({@link #stall}: connections are
 * accepted and kept open, bytes are read and held but nothing is passed on, as on a link that silently drops packets)
 * and then normal again ({@link #pass}: held bytes go on in order). It notices a client that gives up and closes its
 * connection while stalled ({@link #closedWhileStalled}), which is how a test sees a client's time-out cancel a call.
 * Plain blocking sockets, two threads per connection: a test harness, not a production proxy.
 */
public final class TcpFaultProxy implements AutoCloseable {

    private static final int TICK_MILLIS = 50;

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Pump> fromClients = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong closedWhileStalled = new AtomicLong();
    private final AtomicLong heldFromClients = new AtomicLong();
    private volatile long delayMillis;
    private volatile boolean stalled;
    private volatile boolean closed;

    private TcpFaultProxy(ServerSocket listener, InetSocketAddress target) {
        this.listener = listener;
        this.target = target;
    }

    /** A proxy on a free loopback port forwarding to {@code 127.0.0.1:targetPort}. */
    public static TcpFaultProxy start(int targetPort) {
        try {
            ServerSocket listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
            TcpFaultProxy proxy = new TcpFaultProxy(listener, new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
            Thread acceptor = new Thread(proxy::acceptLoop, "tcp-fault-proxy-accept-" + listener.getLocalPort());
            acceptor.setDaemon(true);
            acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the proxy's port", e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Every chunk waits {@code perChunk} before it is passed on (zero: no delay). */
    public void delay(Duration perChunk) {
        this.delayMillis = perChunk.toMillis();
    }

    /** Holds every byte from now on, both ways; connections stay open and new ones are accepted. */
    public void stall() {
        this.stalled = true;
    }

    /** Normal again: no stall, no delay; bytes held while stalled go on in order. */
    public void pass() {
        this.delayMillis = 0;
        this.stalled = false;
    }

    /** Connections accepted since start. */
    public long accepted() {
        return accepted.get();
    }

    /** Connections whose client closed them while the proxy was stalled (a client time-out giving up on a call). */
    public long closedWhileStalled() {
        return closedWhileStalled.get();
    }

    /**
     * Connections still open whose client's bytes have been held for longer than {@code age}: calls the client should
     * have given up on (closing the connection) if its time-out is shorter than {@code age}.
     */
    public long heldLongerThan(Duration age) {
        long now = System.nanoTime();
        return fromClients.stream().filter(pump -> pump.heldFor(now) > age.toNanos()).count();
    }

    /** Chunks a client sent that were held because the proxy was stalled (0: no call met the stall). */
    public long heldFromClients() {
        return heldFromClients.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                accepted.incrementAndGet();
                Socket upstream = new Socket();
                try {
                    upstream.connect(target, 5_000);
                } catch (IOException e) {
                    // the target is down: the client sees its connection closed, as with a refused connection
                    closeQuietly(client);
                    closeQuietly(upstream);
                    continue;
                }
                sockets.add(client);
                sockets.add(upstream);
                client.setSoTimeout(TICK_MILLIS);
                upstream.setSoTimeout(TICK_MILLIS);
                Pump fromClient = new Pump(client, upstream, true);
                fromClients.add(fromClient);
                start(fromClient);
                start(new Pump(upstream, client, false));
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private static void start(Runnable pump) {
        Thread t = new Thread(pump, "tcp-fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Copies one direction of one connection; reads even while stalled, so a closing client is noticed at once. */
    private final class Pump implements Runnable {
        private final Socket from;
        private final Socket to;
        private final boolean fromClient;
        /** When the oldest byte now held arrived (System.nanoTime), 0 while nothing is held. */
        private volatile long heldSince;

        long heldFor(long now) {
            long since = heldSince;
            return since == 0 ? 0 : now - since;
        }

        Pump(Socket from, Socket to, boolean fromClient) {
            this.from = from;
            this.to = to;
            this.fromClient = fromClient;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[16 * 1024];
            ByteArrayOutputStream held = new ByteArrayOutputStream();
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                while (!closed) {
                    int n;
                    try {
                        n = in.read(buffer);
                    } catch (SocketTimeoutException tick) {
                        n = 0;
                    }
                    if (n < 0) {
                        heldSince = 0; // closed: it holds nothing (before the count, so a reader of the count sees it)
                        if (fromClient && stalled) {
                            closedWhileStalled.incrementAndGet();
                        }
                        break;
                    }
                    if (n > 0 && held.size() == 0) {
                        heldSince = System.nanoTime();
                    }
                    held.write(buffer, 0, n);
                    if (stalled && n > 0 && fromClient) {
                        heldFromClients.incrementAndGet();
                    }
                    if (stalled || held.size() == 0) {
                        continue;
                    }
                    long delay = delayMillis;
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    heldSince = 0;
                    held.writeTo(out);
                    out.flush();
                    held.reset();
                }
            } catch (IOException e) {
                // either side went away (a client's reset counts as its giving up, like a close)
                heldSince = 0;
                if (fromClient && stalled && !closed && !from.isClosed()) {
                    closedWhileStalled.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
                fromClients.remove(this);
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closed anyway
        }
        sockets.forEach(TcpFaultProxy::closeQuietly);
    }
}
