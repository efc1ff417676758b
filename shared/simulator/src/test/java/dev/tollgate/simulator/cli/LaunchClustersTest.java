package dev.tollgate.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Before Quarkus starts, audit (and review with --kubeconfig) point the bundled CEL functions at the cluster the
 * command reads: the cluster {@code default} of tollgate.clusters.*, and the shipped namespaces.yaml left out.
 */
class LaunchClustersTest {

    static final List<String> KEYS = List.of("tollgate.clusters.default.kubeconfig", "tollgate.clusters.default.context",
            "tollgate.clusters.default.in-cluster", "tollgate.cel-policy.config", "tollgate.cel-mutate.config");

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        KEYS.forEach(System::clearProperty);
    }

    @Test
    void auditUsesItsKubeconfigAndDropsTheShippedNamespaces() throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("kc"), "apiVersion: v1\nkind: Config\n");
        System.setProperty("tollgate.cel-policy.config", "/x/policies/cel-policy,/x/policies/namespaces.yaml");
        System.setProperty("tollgate.cel-mutate.config", "/x/policies/cel-mutate, /x/policies/namespaces.yaml");
        Launch.useTheClustersNamespaces(new String[] { "audit", "-n", "shop", "--kubeconfig", kubeconfig.toString(),
            "--context=admin" }, Map.of());
        assertEquals(kubeconfig.toAbsolutePath().toString(), System.getProperty("tollgate.clusters.default.kubeconfig"));
        assertEquals("admin", System.getProperty("tollgate.clusters.default.context"));
        assertEquals("/x/policies/cel-policy", System.getProperty("tollgate.cel-policy.config"));
        assertEquals("/x/policies/cel-mutate", System.getProperty("tollgate.cel-mutate.config"));
    }

    @Test
    void auditWithoutAKubeconfigTakesTheFirstOfKubeconfig() throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("second"), "apiVersion: v1\nkind: Config\n");
        Launch.useTheClustersNamespaces(new String[] { "audit" }, Map.of("KUBECONFIG", dir.resolve("missing") + ":"
                + kubeconfig));
        assertEquals(kubeconfig.toAbsolutePath().toString(), System.getProperty("tollgate.clusters.default.kubeconfig"));
    }

    @Test
    void reviewOnlyWithAKubeconfigAndConvertNever() {
        System.setProperty("tollgate.cel-policy.config", "/x/policies/cel-policy,/x/policies/namespaces.yaml");
        Launch.useTheClustersNamespaces(new String[] { "review", "examples/" }, Map.of());
        Launch.useTheClustersNamespaces(new String[] { "convert", "--kubeconfig", "kc" }, Map.of());
        assertNull(System.getProperty("tollgate.clusters.default.kubeconfig"));
        assertEquals("/x/policies/cel-policy,/x/policies/namespaces.yaml", System.getProperty("tollgate.cel-policy.config"));
        Launch.useTheClustersNamespaces(new String[] { "review", "--kubeconfig", "kc", "--", "--context", "x" },
                Map.of());
        assertEquals(Path.of("kc").toAbsolutePath().toString(), System.getProperty("tollgate.clusters.default.kubeconfig"));
        assertNull(System.getProperty("tollgate.clusters.default.context"), "after --, arguments are manifests");
    }
}
