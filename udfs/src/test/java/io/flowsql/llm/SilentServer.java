package io.flowsql.llm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that accepts every connection, reads what comes and never answers (a stalled network or a hung
 * model server), and counts the connections its clients have not closed yet: a client's time-out that really ends
 * its exchange shows here as a closed connection.
 */
final class SilentServer implements AutoCloseable {
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();

    private SilentServer(ServerSocket listener) {
        this.listener = listener;
    }

    static SilentServer start() {
        try {
            SilentServer server = new SilentServer(new ServerSocket(0, 128, InetAddress.getLoopbackAddress()));
            daemon(server::acceptLoop, "silent-server-accept");
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/v1";
    }

    /** Connections accepted since start. */
    int accepted() {
        return accepted.get();
    }

    /** Connections accepted whose client has not closed them. */
    int open() {
        return open.size();
    }

    /** Waits at most {@code millis} until no accepted connection is open; returns how many still are. */
    int awaitAllClosed(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return open.size();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                accepted.incrementAndGet();
                open.add(socket);
                daemon(() -> drainUntilClosed(socket), "silent-server-conn");
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Reads and drops the request bytes; the read ends when the client closes (EOF) or resets the connection. */
    private void drainUntilClosed(Socket socket) {
        byte[] buffer = new byte[8192];
        try (InputStream in = socket.getInputStream()) {
            while (in.read(buffer) >= 0) {
                // never answer
            }
        } catch (IOException e) {
            // reset by the client, or closed by close(): either way no longer open
        } finally {
            open.remove(socket);
        }
    }

    private static void daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
