package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.knative.ServiceManifest;

/** The checkout these tests guard: its function modules, its knative/ folder, and the refresh switch. */
final class Project {

    static final String REFRESH = "./mvnw -B -q install -DskipTests && "
            + "./mvnw -B -pl shared/knative-manifests verify -Dtollgate.knative.refresh=true";

    private static final Pattern FUNCTION_PARENT = Pattern.compile(
            "<parent>.*?<artifactId>tollgate-function-parent</artifactId>.*?</parent>", Pattern.DOTALL);
    private static final Pattern MODULE = Pattern.compile("<module>\\s*(functions/[^<\\s]+)\\s*</module>");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>dev\\.tollgate</groupId>\\s*<artifactId>([^<]+)</artifactId>");

    private Project() {
    }

    static Path root() {
        String dir = System.getProperty("tollgate.root.dir");
        assumeTrue(dir != null, "tollgate.root.dir is not set: run these tests through Maven from the checkout");
        return Path.of(dir).toAbsolutePath().normalize();
    }

    static Path knativeDir() {
        return root().resolve("knative");
    }

    /** Every committed Knative Service: knative/*.yaml (native, the default) and knative/jvm/*.yaml. */
    static List<ServiceManifest> committedManifests() {
        List<ServiceManifest> all = new ArrayList<>(
                ServiceManifest.readAll(knativeDir()));
        all.addAll(ServiceManifest.readAll(JvmVariant.dir()));
        return all;
    }

    static boolean refresh() {
        return Boolean.getBoolean("tollgate.knative.refresh");
    }

    /**
     * A module that becomes a Knative Service: every {@code functions/<name>} whose parent is the function parent.
     *
     * @param registrations the webhook entries it serves: its own webhook.yaml, or (for a bundle) those of the
     *                      function modules it depends on
     */
    record FunctionModule(String name, Path dir, List<WebhookRegistration> registrations) {

        Path generatedManifest() {
            return dir.resolve("target/kubernetes/knative.yml");
        }

        Path fragment() {
            return dir.resolve("src/main/kubernetes/knative.yml");
        }

        Path committedManifest() {
            return knativeDir().resolve(name + ".yaml");
        }

        int smallestWebhookTimeout() {
            return registrations.stream().mapToInt(WebhookRegistration::timeoutSeconds).min().orElseThrow();
        }

        /**
         * Whether the function may read namespaces from the Kubernetes API: its application.properties (or that of a
         * function it bundles) sets a {@code tollgate.<function>.namespaces} key to {@code auto} or {@code cluster}
         * (the CEL functions; see shared/cel-admission NamespaceOptions).
         */
        boolean readsNamespaces() {
            try {
                if (readsNamespaces(dir)) {
                    return true;
                }
                Matcher m = DEPENDENCY.matcher(Files.readString(dir.resolve("pom.xml")));
                while (m.find()) {
                    Path bundled = dir.getParent().resolve(m.group(1));
                    if (Files.isDirectory(bundled) && readsNamespaces(bundled)) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The RBAC that lets the function read namespaces: knative/rbac/<name>.yaml. */
        Path rbac() {
            return knativeDir().resolve("rbac").resolve(name + ".yaml");
        }

        /** The ServiceAccount the function runs as when it reads namespaces. */
        String serviceAccount() {
            return "tollgate-" + name;
        }

        private static boolean readsNamespaces(Path module) throws IOException {
            Path props = module.resolve("src/main/resources/application.properties");
            if (!Files.exists(props)) {
                return false;
            }
            java.util.Properties p = new java.util.Properties();
            try (var in = Files.newInputStream(props)) {
                p.load(in);
            }
            return p.stringPropertyNames().stream().filter(k -> NAMESPACES_KEY.matcher(k).matches())
                    .map(k -> p.getProperty(k).strip()).anyMatch(v -> v.equals("auto") || v.equals("cluster"));
        }
    }

    private static final Pattern NAMESPACES_KEY = Pattern.compile("tollgate\\.[a-z0-9-]+\\.namespaces");

    /**
     * The function modules the reactor builds: the root pom's {@code functions/...} modules whose parent is the
     * function parent. A folder not yet listed there has no build output to compare with.
     */
    static List<FunctionModule> functions() {
        Path functions = root().resolve("functions");
        List<FunctionModule> out = new ArrayList<>();
        try {
            Matcher m = MODULE.matcher(Files.readString(root().resolve("pom.xml")));
            while (m.find()) {
                Path dir = root().resolve(m.group(1));
                Path pom = dir.resolve("pom.xml");
                if (!Files.isRegularFile(pom) || !FUNCTION_PARENT.matcher(Files.readString(pom)).find()) {
                    continue;
                }
                out.add(new FunctionModule(dir.getFileName().toString(), dir, registrations(dir, functions)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(java.util.Comparator.comparing(FunctionModule::name));
        return out;
    }

    private static List<WebhookRegistration> registrations(Path dir, Path functions) throws IOException {
        Path own = dir.resolve(Registrations.FILE_NAME);
        if (Files.isRegularFile(own)) {
            return Registrations.load(own);
        }
        List<WebhookRegistration> bundled = new ArrayList<>();
        Matcher m = DEPENDENCY.matcher(Files.readString(dir.resolve("pom.xml")));
        while (m.find()) {
            Path webhook = functions.resolve(m.group(1)).resolve(Registrations.FILE_NAME);
            if (Files.isRegularFile(webhook)) {
                bundled.addAll(Registrations.load(webhook));
            }
        }
        if (bundled.isEmpty()) {
            throw new IllegalStateException(dir + " has no webhook.yaml and bundles no function that has one");
        }
        return bundled;
    }

    /**
     * Compares a generated file with its committed copy; in refresh mode rewrites the copy instead. A copy that does
     * not exist yet (a new function's) is written in any mode, so a generated function needs no hand step; one that
     * differs fails, since knative/ is what gets deployed.
     */
    static void golden(Path file, String expected, String what) {
        String actual;
        try {
            actual = Files.exists(file) ? Files.readString(file) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (expected.equals(actual)) {
            return;
        }
        if (refresh() || actual == null) {
            write(file, expected, actual == null ? "created " : "refreshed ");
            return;
        }
        assertEquals(expected, actual, () -> root().relativize(file) + " is out of date (" + what
                + "). Refresh it with: " + REFRESH);
    }

    /** Writes a generated file and says so on the console: it is to be committed. */
    static void write(Path file, String content, String verb) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println(verb + root().relativize(file) + (verb.startsWith("created") ? " (commit it)" : ""));
    }
}
