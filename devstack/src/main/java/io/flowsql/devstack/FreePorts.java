package io.flowsql.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Finds loopback ports nobody listens on, so tests and scripts never collide on fixed ports. The kernel may hand a
 * port just closed out again at once (a broker once got the same port for its two listeners and did not start), so
 * this JVM never hands out one of the last {@link #REMEMBERED} ports it gave.
 */
public final class FreePorts {
    static final int REMEMBERED = 1024;
    private static final int ATTEMPTS = 1000;
    private static final Deque<Integer> RECENT = new ArrayDeque<>();
    private static final Set<Integer> RECENT_SET = new HashSet<>();

    private FreePorts() {}

    public static synchronized int next() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = unusedNow();
            if (RECENT_SET.add(port)) {
                RECENT.addLast(port);
                if (RECENT.size() > REMEMBERED) {
                    RECENT_SET.remove(RECENT.removeFirst());
                }
                return port;
            }
        }
        throw new IllegalStateException("no loopback port free that was not handed out lately, in " + ATTEMPTS
                + " attempts");
    }

    private static int unusedNow() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
