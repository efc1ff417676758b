package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.cel.PrecompiledExpressions;
import dev.tollgate.cel.admission.BakedPolicies;
import dev.tollgate.testing.AdmissionTester;

/**
 * Policies baked in at build time ({@link BakedPolicies}, shared/policy-bake's build step): the build runs this
 * function's start on them ({@link CelPolicyBake}), and the start then serves them as it would have served them from
 * its configuration files, every expression planned from its build-time check instead of parsed and checked.
 */
class BakedPoliciesTest {

    static final List<String> EXAMPLE_POLICIES = List.of("examples/no-latest-tag.yaml", "examples/replica-limit.yaml",
            "examples/trusted-registry.yaml");

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() throws Exception {
        BakedPolicies.install(List.of(), getClass().getClassLoader());
    }

    /** A file holding one ValidatingAdmissionPolicy {@code <name>.example.com} on Pods with one validation. */
    private Path podPolicy(String name, String expression) throws Exception {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %s.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  validations:
                  - expression: "%s"
                """.formatted(name, expression));
        return file;
    }

    /** What the build packages, installed as the function's start finds it on its class path. */
    private void bakeAndInstall(List<String> config) throws Exception {
        byte[] baked = BakedPolicies.bake(new CelPolicyBake(), config.stream().map(Path::of).toList(), Path.of(""),
                key -> Optional.empty());
        Path resource = dir.resolve("classes").resolve(BakedPolicies.resource(CelPolicy.FUNCTION));
        Files.createDirectories(resource.getParent());
        Files.write(resource, baked);
        try (URLClassLoader classPath = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()})) {
            BakedPolicies.install(List.of(CelPolicy.FUNCTION), classPath);
        }
    }

    /** The answers to Deployments each example policy allows or denies, one or several at once. */
    private static List<String> verdicts(CelPolicy policy) {
        AdmissionTester tester = AdmissionTester.of(policy);
        List<String> out = new java.util.ArrayList<>();
        for (String namespace : List.of("shop", "sandbox", "other")) {
            for (int replicas : List.of(2, 5)) {
                for (String image : List.of("registry.example.com/web:1", "docker.io/web:latest")) {
                    var response = tester.create(Policies.deployment(namespace, replicas, image)).review()
                            .path("response").deepCopy();
                    ((com.fasterxml.jackson.databind.node.ObjectNode) response).remove("uid");
                    out.add(namespace + " " + replicas + " " + image + ": " + response);
                }
            }
        }
        return out;
    }

    @Test
    void bakedPoliciesAreServedAsFromTheConfigurationWithoutCheckingAgain() throws Exception {
        List<String> fromFiles = verdicts(new CelPolicy(CelPolicy.load(List.of("examples"), "none",
                key -> Optional.empty())));

        bakeAndInstall(EXAMPLE_POLICIES);
        int checked = PrecompiledExpressions.installedCount();
        assertTrue(checked > 0, "the examples' expressions were recorded");
        CelPolicy baked = new CelPolicy(CelPolicy.load(List.of("examples/namespaces.yaml"), "none",
                key -> Optional.empty()));

        assertEquals(fromFiles, verdicts(baked));
        assertEquals(3, baked.policies().policies().size());
        // every expression the start compiled came from the build: none was parsed or checked again
        assertEquals(checked, PrecompiledExpressions.usedCount());
    }

    @Test
    void aPolicyTheApiServerWouldRefuseFailsTheBakeInItsWords() throws Exception {
        Path policy = podPolicy("refused", "object.spec.replicas >");
        String message = assertThrows(IllegalArgumentException.class,
                () -> BakedPolicies.bake(new CelPolicyBake(), List.of(policy), dir, key -> Optional.empty()))
                .getMessage();
        assertTrue(message.startsWith("cel-policy: the API server would refuse this configuration: "
                + "ValidatingAdmissionPolicy 'refused.example.com' (" + policy + "#1): spec.validations[0].expression: "
                + "Invalid value: \"object.spec.replicas >\": compilation failed: ERROR: <input>:1:"), message);
    }

    @Test
    void theBuildsTypeCheckWarningsAreTheStartsOnce() throws Exception {
        Path policy = podPolicy("warned", "object.spec.containres.all(c, c.image != '')");
        bakeAndInstall(List.of(policy.toString()));
        List<String> warnings = new java.util.ArrayList<>();
        CelPolicy.load(List.of("examples/namespaces.yaml"), "none", key -> Optional.empty(), warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("ValidatingAdmissionPolicy 'warned.example.com' (" + policy + "#1)")
                && warnings.get(0).contains("undefined field 'containres'"), warnings.get(0));
    }
}
