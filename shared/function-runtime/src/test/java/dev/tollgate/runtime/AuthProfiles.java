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

    /** The deadline answers with a configured allow instead of an error. */
    public static class AllowOnTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tollgate.deadline.on-timeout", "allow");
        }
    }
}
