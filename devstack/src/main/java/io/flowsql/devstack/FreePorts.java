package io.flowsql.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * Finds loopback ports nobody listens on, so tests and scripts never collide on fixed ports. The kernel may hand a
 * port just closed out again at once (a broker once got the same port for its two listeners and did not start), so
 * this JVM never hands out one of the last {@link #REMEMBERED} ports it gave.
 */
public final class FreePorts {
    static final int REMEMBERED = 1024;
    private static final int ATTEMPTS = 1000;
    /** The ports handed out lately, oldest first. */
    private static final LinkedHashSet<Integer> RECENT = new LinkedHashSet<>();

    private FreePorts() {}

    public static synchronized int next() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = unusedNow();
            if (RECENT.add(port)) {
                if (RECENT.size() > REMEMBERED) {
                    Iterator<Integer> oldest = RECENT.iterator();
                    oldest.next();
                    oldest.remove();
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
