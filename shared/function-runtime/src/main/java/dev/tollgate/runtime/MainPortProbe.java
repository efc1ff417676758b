package dev.tollgate.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * One HTTP exchange with the function's own main server over loopback: proof that the port the policies are served
 * on still takes connections and that an event loop still answers them.
 *
 * <p>Why a request and not a TCP connect: the kernel completes the TCP handshake into the listen backlog whether or
 * not the server ever accepts the connection, so a server whose acceptor thread died or whose event loops are stuck
 * still "accepts" a bare connect until its backlog fills. Only an answer shows that the whole path works. Any HTTP
 * status line is an answer (the request goes to a path no route serves, so 404 is expected); over TLS, a server that
 * refuses the handshake (client certificate required) has answered too. A refused connection, a timeout or a reply
 * that is not HTTP is not.
 */
final class MainPortProbe {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3})( .*)?");
    private static final int MAX_STATUS_LINE = 256;

    record Result(boolean answered, String detail) {
    }

    private MainPortProbe() {
    }

    /**
     * Sends {@code GET path} to {@code address} (over TLS when {@code tls}) and waits at most {@code timeout} in all
     * for the status line.
     */
    static Result probe(InetSocketAddress address, boolean tls, String path, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Socket plain = new Socket()) {
            plain.connect(address, remainingMillis(deadline));
            Socket socket = plain;
            if (tls) {
                SSLSocket ssl = (SSLSocket) trustAny().getSocketFactory().createSocket(plain,
                        address.getHostString(), address.getPort(), true);
                ssl.setSoTimeout(remainingMillis(deadline));
                try {
                    ssl.startHandshake();
                } catch (SSLException e) {
                    return new Result(true, "refused the TLS handshake (" + e.getMessage() + ")");
                }
                socket = ssl;
            }
            socket.setSoTimeout(remainingMillis(deadline));
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close"
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String line = statusLine(socket, deadline);
            var status = STATUS_LINE.matcher(line);
            if (status.matches()) {
                return new Result(true, "answered " + status.group(1));
            }
            return new Result(false, line.isEmpty() ? "closed the connection without an answer"
                    : "answered something that is not HTTP: '" + printable(line) + "'");
        } catch (SocketTimeoutException e) {
            return new Result(false, "no answer within " + timeout.toMillis() + " ms");
        } catch (ConnectException e) {
            return new Result(false, "refused the connection (" + e.getMessage() + ")");
        } catch (SSLException e) {
            // TLS 1.3: the server checks the client certificate after the client's side of the handshake is done.
            return new Result(true, "refused the TLS session (" + e.getMessage() + ")");
        } catch (IOException e) {
            return new Result(false, "failed: " + e);
        }
    }

    /** Bytes up to the first CRLF (or end of stream), each read bounded by what is left of the deadline. */
    private static String statusLine(Socket socket, long deadline) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        while (line.length() < MAX_STATUS_LINE) {
            socket.setSoTimeout(remainingMillis(deadline));
            int b = in.read();
            if (b < 0 || b == '\n') {
                break;
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static int remainingMillis(long deadline) throws SocketTimeoutException {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new SocketTimeoutException("deadline passed");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    private static String printable(String s) {
        return s.replaceAll("[^\\x20-\\x7e]", "?");
    }

    /**
     * Accepts any server certificate: the probe talks to its own process over loopback and sends nothing secret; it
     * checks that the server answers, not who it is.
     */
    private static volatile SSLContext trustAny;

    /**
     * Made on first use, not in a static initializer: Quarkus initializes application classes while it builds a
     * native image, and an SSLContext must not be stored in the image heap (the build fails).
     */
    private static SSLContext trustAny() {
        SSLContext context = trustAny;
        if (context == null) {
            context = newTrustAny();
            trustAny = context;
        }
        return context;
    }

    private static SSLContext newTrustAny() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] { new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            } }, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS context for the main-port liveness probe", e);
        }
    }
}
