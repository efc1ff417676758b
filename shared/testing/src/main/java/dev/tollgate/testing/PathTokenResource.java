package dev.tollgate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts a packaged function ({@code @QuarkusIntegrationTest}: the fast-jar, or the native executable under
 * {@code -Dnative}) as it runs in production, where a caller check is required: with a path token, the check
 * managed clusters use ({@code https://host/<token>/<function>}), and with its health and metrics on a free management
 * port ({@link ManagementEndpoints}). Every init arg of the annotation is passed on as
 * configuration too, e.g. a CEL function's policy directory:
 *
 * <pre>{@code
 * @QuarkusIntegrationTest
 * @WithTestResource(value = PathTokenResource.class,
 *         initArgs = @ResourceArg(name = "tollgate.cel-policy.config", value = "examples"))
 * class CelPolicyIT extends PackagedFunctionTest { ... }
 * }</pre>
 *
 * Relative paths are resolved by the function against its working directory, which is the module's directory
 * under failsafe.
 */
public class PathTokenResource implements QuarkusTestResourceLifecycleManager {

    /** The token the function accepts as its first path segment (16+ characters of {@code A-Za-z0-9._~-}). */
    public static final String TOKEN = "it-path-token-0123456789abcdef";

    /**
     * The system property (global to the test JVM, whatever class loader reads it) holding the management port given
     * to the function, for {@link ManagementEndpoints}.
     */
    public static final String MANAGEMENT_PORT_PROPERTY = "tollgate.test.management-port";

    private final Map<String, String> config = new LinkedHashMap<>();

    @Override
    public void init(Map<String, String> initArgs) {
        config.putAll(initArgs);
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> all = new LinkedHashMap<>(config);
        all.put("tollgate.auth.path-token.values", TOKEN);
        // Health and metrics on their own port, on loopback; a free one, as other builds may run at the same time.
        int managementPort = freePort();
        System.setProperty(MANAGEMENT_PORT_PROPERTY, Integer.toString(managementPort));
        all.put("quarkus.management.port", Integer.toString(managementPort));
        all.put("quarkus.management.host", "localhost");
        return all;
    }

    @Override
    public void stop() {
        // the function process is stopped by Quarkus after the test class
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the management interface", e);
        }
    }

    /** {@code path} as a caller holding the token reaches it. */
    public static String withToken(String path) {
        return "/" + TOKEN + path;
    }
}
