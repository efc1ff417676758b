package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.testing.Skip;

/**
 * The packaged CLI against a real kube-apiserver (v1.20.2, ../shared/tools/kube-apiserver, set up into
 * {@code -Dtollgate.kas.dir}, default {@code $HOME/kas}): objects as the API server returns them carry
 * {@code metadata.managedFields}, whose {@code fieldsV1} the API server never validates; neither {@code tollgate
 * review} of an object read back with kubectl nor {@code tollgate audit} of the cluster may warn about them.
 * Skipped, saying so, where no kube-apiserver has been built.
 */
class KubeApiServerIT {

    @TempDir
    Path dir;

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result run(Path workDir, List<String> command) throws Exception {
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish in 300 s:\n" + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void objectsReadBackFromAClusterGetNoUnknownFieldWarnings() throws Exception {
        Path root = Path.of(System.getProperty("tollgate.root.dir", "../..")).toAbsolutePath().normalize();
        Path kit = root.resolve("../shared/tools/kube-apiserver").normalize();
        Path kas = Path.of(System.getProperty("tollgate.kas.dir", System.getProperty("user.home") + "/kas"));
        Skip.unless(Files.isExecutable(kas.resolve("bin/kube-apiserver")) && Files.isRegularFile(kit.resolve(
                "start.sh")), "KubeApiServerIT.objectsReadBackFromAClusterGetNoUnknownFieldWarnings", () -> "no "
                + "kube-apiserver at " + kas.resolve("bin/kube-apiserver") + " (build one with " + kit
                + "/setup.sh " + kas + ")");
        Path jar = root.resolve("shared/simulator/target/quarkus-app/quarkus-run.jar");
        assertTrue(Files.isRegularFile(jar), "package the simulator first: " + jar);
        String name = "simulator-it-" + ProcessHandle.current().pid();
        Result started = run(dir, List.of("bash", kit.resolve("start.sh").toString(), kas.toString(), name));
        assertEquals(0, started.exit(), started.stderr());
        try {
            Path kubeconfig = Path.of(started.stdout().strip());
            String kubectl = kas.resolve("bin/kubectl").toString();
            Path manifest = Files.writeString(dir.resolve("shop.yaml"), """
                    apiVersion: v1
                    kind: Namespace
                    metadata: {name: shop}
                    ---
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: web, namespace: shop, labels: {app: web}}
                    spec:
                      selector: {matchLabels: {app: web}}
                      template:
                        metadata: {labels: {app: web}}
                        spec: {containers: [{name: app, image: "registry.example.com/shop/web:1.4"}]}
                    """);
            Result applied = run(dir, List.of(kubectl, "--kubeconfig", kubeconfig.toString(), "apply", "-f",
                    manifest.toString()));
            assertEquals(0, applied.exit(), applied.stderr());
            Result read = run(dir, List.of(kubectl, "--kubeconfig", kubeconfig.toString(), "-n", "shop", "get",
                    "deployment", "web", "-o", "yaml"));
            assertEquals(0, read.exit(), read.stderr());
            // kubectl 1.20 shows managedFields by default: what `tollgate review` is given here is what the API
            // server returned.
            assertTrue(read.stdout().contains("fieldsV1:") && read.stdout().contains("f:metadata:"), read.stdout());
            Path stored = Files.writeString(dir.resolve("web.yaml"), read.stdout());
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

            Result review = run(dir, List.of(java, "-jar", jar.toString(), "review", "-o", "json", stored.toString()));
            assertTrue(review.exit() == 0 || review.exit() == 1, review.stdout() + review.stderr());
            assertFalse(review.stdout().contains("unknown field"), review.stdout());
            assertTrue(review.stdout().contains("\"warnings\""), "the report has its warnings field: "
                    + review.stdout());

            List<String> audit = new ArrayList<>(List.of(java, "-jar", jar.toString(), "audit", "--kubeconfig",
                    kubeconfig.toString(), "-n", "shop", "--no-progress", "-o", "json"));
            Result audited = run(dir, audit);
            assertTrue(audited.exit() == 0 || audited.exit() == 1, audited.stdout() + audited.stderr());
            assertTrue(audited.stdout().contains("\"name\":\"web\"") || audited.stdout().contains("\"objects\""),
                    audited.stdout());
            assertFalse(audited.stdout().contains("unknown field"), audited.stdout());
        } finally {
            run(dir, List.of("bash", kit.resolve("stop.sh").toString(), kas.toString(), name));
        }
    }
}
