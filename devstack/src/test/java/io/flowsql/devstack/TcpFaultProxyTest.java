package io.flowsql.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault proxy in front of a line echo server: passes bytes, delays them, stalls them and lets them go again. */
class TcpFaultProxyTest {
    private ServerSocket echo;
    private TcpFaultProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread c = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // client gone
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        proxy = TcpFaultProxy.start(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void passesBytesBothWays() throws IOException {
        try (Socket s = connect(2_000)) {
            assertThat(roundTrip(s, "hello")).isEqualTo("hello");
        }
        assertThat(proxy.accepted()).isEqualTo(1);
    }

    @Test
    void aDelayIsAddedToEveryChunk() throws IOException {
        proxy.delay(Duration.ofMillis(300));
        try (Socket s = connect(5_000)) {
            long start = System.nanoTime();
            assertThat(roundTrip(s, "slow")).isEqualTo("slow");
            assertThat((System.nanoTime() - start) / 1_000_000).as("one chunk each way, 300 ms each").isGreaterThanOrEqualTo(600);
        }
    }

    @Test
    void aStallHoldsBytesUntilPassAndSeesAClientGiveUp() throws Exception {
        proxy.stall();
        try (Socket s = connect(500)) {
            s.getOutputStream().write("held".getBytes(StandardCharsets.UTF_8));
            assertThatThrownBy(() -> s.getInputStream().read()).as("nothing comes back while stalled")
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(proxy.heldLongerThan(Duration.ofMillis(200))).as("a call held past a 200 ms time-out").isEqualTo(1);
            assertThat(proxy.heldLongerThan(Duration.ofSeconds(30))).isZero();
        }
        // the client gave up and closed its connection: the proxy sees it while still stalled
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (proxy.closedWhileStalled() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(proxy.closedWhileStalled()).isEqualTo(1);
        assertThat(proxy.heldLongerThan(Duration.ZERO)).as("a closed connection holds nothing").isZero();

        try (Socket s = connect(3_000)) {
            s.getOutputStream().write("later".getBytes(StandardCharsets.UTF_8));
            Thread.sleep(300);
            proxy.pass();
            assertThat(new String(s.getInputStream().readNBytes(5), StandardCharsets.UTF_8)).as("held bytes go on after pass")
                    .isEqualTo("later");
            assertThat(proxy.heldLongerThan(Duration.ZERO)).as("nothing held after pass").isZero();
        }
        assertThat(proxy.closedWhileStalled()).as("a connection closed after pass is not counted").isEqualTo(1);
        assertThat(proxy.heldFromClients()).as("the chunks held while stalled").isGreaterThanOrEqualTo(2);
    }

    private Socket connect(int readTimeoutMillis) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(readTimeoutMillis);
        return s;
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        s.getOutputStream().write(bytes);
        s.getOutputStream().flush();
        return new String(s.getInputStream().readNBytes(bytes.length), StandardCharsets.UTF_8);
    }
}
