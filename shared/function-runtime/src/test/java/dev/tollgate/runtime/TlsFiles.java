package dev.tollgate.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.smallrye.certs.CertificateGenerator;
import io.smallrye.certs.CertificateRequest;
import io.smallrye.certs.Format;
import io.smallrye.certs.PemCertificateFiles;
import io.smallrye.certs.Pkcs12CertificateFiles;

/**
 * Generates a server certificate (PEM, as a Kubernetes secret mount would hold it) and a client keystore, serves
 * TLS from the PEM files with mTLS against the client's certificate, and can rotate the server files in place.
 */
public class TlsFiles implements QuarkusTestResourceLifecycleManager {

    /** client-auth is fixed at build time, so it needs a profile; the files come from this resource. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.ssl.client-auth", "request");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TlsFiles.class));
        }
    }

    static final String PASSWORD = "changeit";
    static final Path DIR = Path.of("target", "tls-test").toAbsolutePath();
    static final Path CERT = DIR.resolve("tls.crt");
    static final Path KEY = DIR.resolve("tls.key");
    static final Path CLIENT_CA = DIR.resolve("client-ca.crt");
    static final Path CLIENT_P12 = DIR.resolve("client.p12");
    static final Path STRANGER_P12 = DIR.resolve("stranger.p12");

    @Override
    public Map<String, String> start() {
        try {
            Files.createDirectories(DIR.resolve("generated"));
            var files = generate("gen1", true);
            PemCertificateFiles pem = find(files, PemCertificateFiles.class);
            Pkcs12CertificateFiles p12 = find(files, Pkcs12CertificateFiles.class);
            Files.copy(pem.certFile(), CERT, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(pem.keyFile(), KEY, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(pem.serverTrustFile(), CLIENT_CA, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(p12.clientKeyStoreFile(), CLIENT_P12, StandardCopyOption.REPLACE_EXISTING);
            var stranger = generate("stranger", true);
            Files.copy(find(stranger, Pkcs12CertificateFiles.class).clientKeyStoreFile(), STRANGER_P12,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (Exception e) {
            throw new IllegalStateException("cannot generate test certificates", e);
        }
        return Map.ofEntries(
                Map.entry("quarkus.tls.tollgate.key-store.pem.0.cert", CERT.toString()),
                Map.entry("quarkus.tls.tollgate.key-store.pem.0.key", KEY.toString()),
                Map.entry("quarkus.tls.tollgate.trust-store.pem.certs", CLIENT_CA.toString()),
                Map.entry("quarkus.tls.tollgate.reload-period", "500ms"),
                Map.entry("quarkus.http.tls-configuration-name", "tollgate"),
                Map.entry("tollgate.auth.required", "true"),
                Map.entry("tollgate.auth.mtls.enabled", "true"));
    }

    /** Writes a fresh server certificate and key over the served files, as a secret rotation would. */
    static void rotateServerCertificate(String name) throws Exception {
        PemCertificateFiles pem = find(generate(name, false), PemCertificateFiles.class);
        Path cert = Files.copy(pem.certFile(), DIR.resolve("next.crt"), StandardCopyOption.REPLACE_EXISTING);
        Path key = Files.copy(pem.keyFile(), DIR.resolve("next.key"), StandardCopyOption.REPLACE_EXISTING);
        Files.move(key, KEY, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(cert, CERT, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<io.smallrye.certs.CertificateFiles> generate(String name, boolean client) throws Exception {
        CertificateRequest request = new CertificateRequest().withName(name).withCN("localhost")
                .withSubjectAlternativeName("DNS:localhost").withPassword(PASSWORD)
                .withFormats(List.of(Format.PEM, Format.PKCS12)).withClientCertificate(client);
        return new CertificateGenerator(DIR.resolve("generated"), true).generate(request);
    }

    private static <T> T find(List<io.smallrye.certs.CertificateFiles> files, Class<T> type) {
        return files.stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
    }

    @Override
    public void stop() {
    }
}
