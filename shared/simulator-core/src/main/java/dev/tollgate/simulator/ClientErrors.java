package dev.tollgate.simulator;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Inet6Address;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.net.ssl.SSLException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The words the API server's webhook client (client-go's REST client) uses for a call that failed, so that the
 * simulator's {@code failed calling webhook "<name>": failed to call webhook: <error>} reads as the cluster's.
 *
 * <ul>
 * <li>An HTTP status outside 200-206 whose body is a {@code Status} with {@code status: Failure}: that Status's
 * message (client-go {@code rest/request.go}, {@code Result.Error}). Otherwise the generic text for the code
 * (apimachinery {@code pkg/api/errors/errors.go}, {@code NewGenericServerResponse}), where the server's own text is
 * the body (at most 2048 bytes, trimmed) when the Content-Type is missing or {@code text/*}, else {@code unknown}
 * ({@code newUnstructuredResponseError}).</li>
 * <li>No answer: Go's {@code url.Error}, {@code Post "<url>": <cause>}, with the cause in Go's words for a deadline,
 * a refused connection, an unknown host, an untrusted certificate and a connection closed without an answer.</li>
 * </ul>
 */
public final class ClientErrors {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** client-go's cap on the body text put in an unstructured error. */
    private static final int MAX_UNSTRUCTURED_BODY_BYTES = 2048;

    private ClientErrors() {
    }

    /** client-go treats 200-206 as an answer and anything else as an error (rest/request.go transformResponse). */
    public static boolean isAnswer(int status) {
        return status >= 200 && status <= 206;
    }

    /** The client error for an HTTP answer that is not a success, as client-go reports it. */
    public static String forResponse(int status, String contentType, byte[] body) {
        String statusMessage = failureStatusMessage(body);
        if (statusMessage != null) {
            return statusMessage;
        }
        String serverMessage = "unknown";
        if (isText(contentType)) {
            int n = Math.min(body.length, MAX_UNSTRUCTURED_BODY_BYTES);
            serverMessage = new String(body, 0, n, StandardCharsets.UTF_8).strip();
        }
        return genericServerResponse(status, serverMessage);
    }

    /** The message of a body that decodes as a {@code Status} (apiVersion v1 assumed) with status Failure, or null. */
    private static String failureStatusMessage(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(body);
            if (n != null && n.isObject() && "Status".equals(n.path("kind").asText())
                    && n.path("apiVersion").asText("v1").equals("v1") && "Failure".equals(n.path("status").asText())) {
                return n.path("message").asText("");
            }
        } catch (IOException | RuntimeException e) {
            // not a Status: the generic message applies
        }
        return null;
    }

    private static boolean isText(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        return contentType.strip().toLowerCase(Locale.ROOT).startsWith("text/");
    }

    /** apimachinery's NewGenericServerResponse for a call without a resource (the webhook client names none). */
    static String genericServerResponse(int code, String serverMessage) {
        return switch (code) {
            case 409 -> "the server reported a conflict";
            case 404 -> "the server could not find the requested resource";
            case 400 -> "the server rejected our request for an unknown reason";
            case 401 -> "the server has asked for the client to provide credentials";
            case 403, 415 -> serverMessage;
            case 406 -> serverMessage.isEmpty() || serverMessage.equals("unknown")
                    ? "the server was unable to respond with a content type that the client supports" : serverMessage;
            case 405 -> "the server does not allow this method on the requested resource";
            case 422 -> "the server rejected our request due to an error in our request";
            case 503 -> "the server is currently unable to handle the request";
            case 504 -> "the server was unable to return a response in the time allotted, but may still be "
                    + "processing the request";
            case 429 -> "the server has received too many requests and has asked us to try again later";
            default -> code >= 500
                    ? "an error on the server (" + goQuote(serverMessage) + ") has prevented the request from succeeding"
                    : "the server responded with the status code " + code + " but did not return more information";
        };
    }

    /**
     * Go's {@code url.Error} for a POST that got no answer: {@code Post "<url>": <cause>}. The cause in Go's words
     * where the Java exception says the same thing (net/http, net, crypto/tls); otherwise the Java message.
     *
     * @param shownUrl the URL as the message shows it (with the {@code ?timeout=} the API server adds)
     */
    public static String forTransport(String shownUrl, URI target, IOException e) {
        return "Post \"" + shownUrl + "\": " + cause(target, e);
    }

    private static String cause(URI target, IOException e) {
        if (e instanceof HttpTimeoutException) {
            // The API server bounds the call with a context deadline of timeoutSeconds.
            return "context deadline exceeded";
        }
        if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
            return "dial tcp " + dialAddress(target) + ": connect: connection refused";
        }
        if (e instanceof UnknownHostException || e.getCause() instanceof UnknownHostException) {
            return "dial tcp: lookup " + target.getHost() + ": no such host";
        }
        if (e instanceof SSLException) {
            String text = String.valueOf(e.getMessage());
            if (text.contains("PKIX path") || text.contains("unable to find valid certification path")) {
                return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
            }
            return "tls: " + text;
        }
        String text = String.valueOf(e.getMessage());
        if (text.contains("received no bytes") || text.contains("EOF")) {
            return "EOF"; // the connection closed before an answer
        }
        return e.getClass().getSimpleName() + ": " + text;
    }

    /** The address Go's dialer names: the resolved IP and the port (443/80 when the URL gives none). */
    private static String dialAddress(URI target) {
        int port = target.getPort() >= 0 ? target.getPort() : "https".equalsIgnoreCase(target.getScheme()) ? 443 : 80;
        String host = target.getHost();
        try {
            InetAddress address = InetAddress.getByName(host);
            host = address.getHostAddress();
            if (address instanceof Inet6Address) {
                host = "[" + goIpv6(address.getAddress()) + "]";
            }
        } catch (UnknownHostException ignored) {
            // keep the name as written
        }
        return host + ":" + port;
    }

    /**
     * An IPv6 address as Go's net.IP String writes it (RFC 5952): lower-case groups without leading zeros, the
     * longest run of two or more zero groups (the first of equal runs) as {@code ::}. Java writes every group.
     */
    static String goIpv6(byte[] ip) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((ip[2 * i] & 0xFF) << 8) | (ip[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8;) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLength - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(groups[i]));
        }
        return b.toString();
    }

    /** Go's %q for the printable text a server sends: double quotes, with backslash and quote escaped. */
    static String goQuote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
