package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.simulator.cli.ReviewCommand;
import picocli.CommandLine;

/**
 * A path token in a webhook URL is a secret: the API server's messages carry the whole URL, the simulator's never
 * print the token.
 */
class SecretUrlsTest {

    static final String TOKEN = "3f9a1c0e7b2d4a6f8e0c1b3d5a7f9e2c4b6d8a0e1f3c5b7d";

    @Test
    void tokensUserInfoAndQueriesAreRedactedFunctionPathsKept() {
        assertEquals("https://fn.example.com/<redacted>/require-labels?timeout=10s",
                SecretUrls.redact("https://fn.example.com/" + TOKEN + "/require-labels?timeout=10s"));
        assertEquals("https://fn.example.com/always-pull-images",
                SecretUrls.redact("https://fn.example.com/always-pull-images"), "a function name is no token");
        assertEquals("https://fn.example.com/pod-security/restricted/enforce",
                SecretUrls.redact("https://fn.example.com/pod-security/restricted/enforce"));
        assertEquals("https://<redacted>@fn.example.com/x", SecretUrls.redact("https://user:pw@fn.example.com/x"));
        assertEquals("https://fn.example.com/x?<redacted>", SecretUrls.redact("https://fn.example.com/x?key=s3cr3t"));
        assertEquals("https://fn.example.com:8443", SecretUrls.redact("https://fn.example.com:8443"));
        assertEquals("url 'https://h/<redacted>/f' must use ...",
                SecretUrls.redactIn("url 'https://h/" + TOKEN + "/f' must use ..."));
        assertEquals("no url here", SecretUrls.redactIn("no url here"));
    }

    @Test
    void aFailedCallToATokenUrlDoesNotPrintTheToken() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/" + TOKEN + "/require-labels";
        String hook = "- name: hook.example.com\n  clientConfig: {url: \"" + url + "\"}\n"
                + "  rules: [{operations: [\"*\"], apiGroups: [\"*\"], apiVersions: [\"*\"], resources: [\"*\"]}]\n"
                + "  sideEffects: None\n  admissionReviewVersions: [v1]\n  failurePolicy: Fail\n";
        try (Simulator s = new Simulator(new Configurations(List.of(SimulatorTest.config(false, "v", hook))),
                new HttpWebhookClient(""), new MatchConditionsSupport(KubeCel.standard()))) {
            ManifestReport r = s.review(SimulatorTest.pod("web", ""), ReviewSettings.defaults());
            assertEquals("Internal error occurred: failed calling webhook \"hook.example.com\": failed to call webhook: "
                    + "Post \"http://127.0.0.1:" + port + "/<redacted>/require-labels?timeout=10s\": dial tcp 127.0.0.1:"
                    + port + ": connect: connection refused", r.message());
            String text = Reports.text(List.of(r)) + Reports.json(List.of(r));
            assertFalse(text.contains(TOKEN), text);
        }
    }

    @Test
    void theReviewCommandNeverPrintsATokenGivenWithUrl(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        int exit;
        try {
            // Nothing listens there: every call fails closed and the report words it as the API server, token left out.
            exit = new CommandLine(new ReviewCommand(() -> "https://127.0.0.1:1")).execute("--url",
                    "http://127.0.0.1:" + port + "/" + TOKEN, SimulatorTest.class.getResource("/e2e").getPath());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String printed = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, printed);
        assertTrue(printed.contains("/<redacted>/always-pull-images?timeout=10s\": dial tcp 127.0.0.1:" + port
                + ": connect: connection refused"), printed);
        assertTrue(printed.contains("<redacted>"), printed);
        assertFalse(printed.contains(TOKEN), printed);
    }
}
