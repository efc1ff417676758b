package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/**
 * What the main-port liveness probe calls alive and what not, against servers stuck in the ways a real one gets
 * stuck. The probe's timeout is short here only to keep the test quick.
 */
class MainPortProbeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final String PATH = "/q/tollgate-liveness";

    @Test
    void anHttpAnswerIsAlive() throws Exception {
        try (ServerSocket server = loopbackServer()) {
            serve(server, socket -> answer(socket, "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"));
            MainPortProbe.Result r = probe(server);
            assertTrue(r.answered(), r.detail());
            assertEquals("answered 404", r.detail());
        }
    }

    @Test
    void aClosedPortIsDown() throws Exception {
        InetSocketAddress address;
        try (ServerSocket server = loopbackServer()) {
            address = (InetSocketAddress) server.getLocalSocketAddress();
        }
        MainPortProbe.Result r = MainPortProbe.probe(address, false, PATH, TIMEOUT);
        assertFalse(r.answered(), r.detail());
        assertTrue(r.detail().startsWith("refused the connection"), r.detail());
    }

    @Test
    void aServerThatNeverAcceptsIsDownAlthoughTcpConnects() throws Exception {
        // The kernel completes the handshake into the backlog: a bare TCP probe would call this server alive.
        try (ServerSocket server = loopbackServer()) {
            try (Socket tcpOnly = new Socket()) {
                tcpOnly.connect(server.getLocalSocketAddress(), 1000);
                assertTrue(tcpOnly.isConnected(), "TCP connects to a server that never accepts");
            }
            MainPortProbe.Result r = probe(server);
            assertFalse(r.answered(), r.detail());
            assertTrue(r.detail().startsWith("no answer within"), r.detail());
        }
    }

    @Test
    void aServerThatAcceptsButNeverAnswersIsDown() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ServerSocket server = loopbackServer()) {
            serve(server, socket -> {
                try {
                    release.await(); // a stuck event loop: the request is read by nobody
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            MainPortProbe.Result r = probe(server);
            assertFalse(r.answered(), r.detail());
            assertTrue(r.detail().startsWith("no answer within"), r.detail());
        } finally {
            release.countDown();
        }
    }

    @Test
    void aServerThatClosesWithoutAnsweringIsDown() throws Exception {
        try (ServerSocket server = loopbackServer()) {
            serve(server, socket -> {
                try {
                    socket.close();
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            MainPortProbe.Result r = probe(server);
            assertFalse(r.answered(), r.detail());
        }
    }

    @Test
    void somethingElseOnThePortIsDown() throws Exception {
        try (ServerSocket server = loopbackServer()) {
            serve(server, socket -> answer(socket, "SSH-2.0-OpenSSH_9.6\r\n"));
            MainPortProbe.Result r = probe(server);
            assertFalse(r.answered(), r.detail());
            assertTrue(r.detail().contains("not HTTP"), r.detail());
        }
    }

    @Test
    void theRequestIsAGetOfTheGivenPath() throws Exception {
        String[] requestLine = new String[1];
        try (ServerSocket server = loopbackServer()) {
            serve(server, socket -> {
                try {
                    InputStream in = socket.getInputStream();
                    StringBuilder line = new StringBuilder();
                    for (int b = in.read(); b >= 0 && b != '\r'; b = in.read()) {
                        line.append((char) b);
                    }
                    requestLine[0] = line.toString();
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                answer(socket, "HTTP/1.1 404 Not Found\r\n\r\n");
            });
            assertTrue(probe(server).answered());
        }
        assertEquals("GET " + PATH + " HTTP/1.1", requestLine[0]);
    }

    @Test
    void wildcardBindAddressesAreProbedOnLoopback() throws Exception {
        assertEquals(InetAddress.getLoopbackAddress(), MainPortLiveness.probeHost("0.0.0.0"));
        assertEquals(InetAddress.getLoopbackAddress(), MainPortLiveness.probeHost("::"));
        assertEquals(InetAddress.getByName("127.0.0.2"), MainPortLiveness.probeHost("127.0.0.2"));
    }

    private static MainPortProbe.Result probe(ServerSocket server) {
        return MainPortProbe.probe((InetSocketAddress) server.getLocalSocketAddress(), false, PATH, TIMEOUT);
    }

    private static ServerSocket loopbackServer() throws IOException {
        return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Accepts one connection on a daemon thread and hands it to {@code handler}. */
    private static void serve(ServerSocket server, Consumer<Socket> handler) {
        Thread t = new Thread(() -> {
            try {
                Socket socket = server.accept();
                handler.accept(socket);
            } catch (IOException e) {
                // the server was closed by the test
            }
        });
        t.setDaemon(true);
        t.start();
    }

    private static void answer(Socket socket, String text) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
