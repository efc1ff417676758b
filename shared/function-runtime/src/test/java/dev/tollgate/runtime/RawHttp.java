package dev.tollgate.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 over a bare socket, for requests no well-behaved client sends: odd framing, stalled bodies. */
final class RawHttp implements AutoCloseable {

    final Socket socket;

    RawHttp(URL server) throws IOException {
        socket = new Socket(server.getHost(), server.getPort());
        socket.setSoTimeout(10_000);
    }

    RawHttp send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        return this;
    }

    /** Everything the server sends until it closes the connection (or 10 s pass). */
    String readUntilClosed() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0;) {
                out.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            out.write("\n<still open after 10 s>".getBytes(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String post(String path, String headers, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + headers
                + "\r\n" + body;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
