package dev.tollgate.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** Test profiles for the caller checks; token files live in a temporary folder the tests can rewrite. */
final class AuthProfiles {

    static final String PATH_TOKEN = "pathtoken-0123456789abcdef";
    static final String BEARER_OLD = "bearer-old-0123456789abcdef";
    static final String BEARER_NEW = "bearer-new-0123456789abcdef";
    /** A fixed place: the profile and the test class are loaded by different class loaders. */
    static final Path TOKEN_DIR = Path.of("target", "auth-test").toAbsolutePath();

    private AuthProfiles() {
    }

    /** Bearer tokens from a file re-read every 200 ms, and a path token from a value. */
    public static class Tokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Files.createDirectories(TOKEN_DIR);
                Files.writeString(TOKEN_DIR.resolve("bearer"), BEARER_OLD + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of(
                    "tollgate.auth.required", "true",
                    "tollgate.auth.bearer.files", TOKEN_DIR.resolve("bearer").toString(),
                    "tollgate.auth.path-token.values", PATH_TOKEN,
                    "tollgate.auth.reload-period", "200ms");
        }
    }

    static final String EAST_PATH = "east-path-token-0123456789";
    static final String WEST_PATH = "west-path-token-0123456789";
    static final String EAST_BEARER = "east-bearer-0123456789abcdef";
    static final String WEST_BEARER = "west-bearer-0123456789abcdef";
    /** Per-cluster path token files, as a Secret with one key per cluster is mounted. */
    static final Path CLUSTERS_DIR = Path.of("target", "cluster-auth-test").toAbsolutePath();

    /** Writes the clusters' token files as the profile starts with them (tests rewrite them). */
    static void writeClusterFiles() {
        try {
            Files.createDirectories(CLUSTERS_DIR);
            Files.writeString(CLUSTERS_DIR.resolve("east.path-tokens"), EAST_PATH + "\n");
            Files.writeString(CLUSTERS_DIR.resolve("west.path-tokens"), "# west's token\n" + WEST_PATH + "\n");
            Files.writeString(CLUSTERS_DIR.resolve("west.bearer"), WEST_BEARER + "\n");
            // Not a token file of the directory: only <cluster>.path-tokens and <cluster>.bearer-tokens are.
            Files.writeString(CLUSTERS_DIR.resolve("README"), "not read\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Two clusters, east and west: path tokens from a directory of per-cluster files, bearer tokens from per-cluster
     * keys (east a value, west a file), all files re-read every 200 ms.
     */
    public static class Clusters implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            writeClusterFiles();
            return Map.of(
                    "tollgate.auth.required", "true",
                    "tollgate.auth.clusters-dir", CLUSTERS_DIR.toString(),
                    "tollgate.auth.clusters.east.bearer.values", EAST_BEARER,
                    "tollgate.auth.clusters.west.bearer.files", CLUSTERS_DIR.resolve("west.bearer").toString(),
                    "tollgate.auth.reload-period", "200ms");
        }
    }

    /**
     * Two clusters, east and west, with the same tokens as {@link Clusters} but all in one JSON value
     * (tollgate.auth.clusters-json), as Terraform writes it into a Lambda function's environment.
     */
    public static class ClustersJson implements QuarkusTestProfile {
        static final String JSON = "{\"east\":{\"path-tokens\":[\"" + EAST_PATH + "\"],\"bearer-tokens\":[\""
                + EAST_BEARER + "\"]},\"west\":{\"path-tokens\":[\"" + WEST_PATH + "\"],\"bearer-tokens\":[\""
                + WEST_BEARER + "\"]}}";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tollgate.auth.required", "true",
                    "tollgate.auth.clusters-json", JSON);
        }
    }

    /** The deadline answers with a configured allow instead of an error. */
    public static class AllowOnTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tollgate.deadline.on-timeout", "allow");
        }
    }
}
