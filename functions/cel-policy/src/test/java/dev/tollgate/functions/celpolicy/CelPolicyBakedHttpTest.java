package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.tollgate.cel.PrecompiledExpressions;
import dev.tollgate.cel.admission.BakedPolicies;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The function built with the example policies baked in (shared/policy-bake's build step, run by this test's Quarkus
 * build) and only the Namespaces in its configuration files: it answers as when the policies are read at startup
 * (CelPolicyHttpTest), its start planning every expression from the build's check.
 */
@QuarkusTest
@TestProfile(CelPolicyBakedHttpTest.Baked.class)
class CelPolicyBakedHttpTest {

    public static class Baked implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("tollgate.cel-policy.baked-config", String.join(",", BakedPoliciesTest.EXAMPLE_POLICIES),
                    "tollgate.cel-policy.config", "examples/namespaces.yaml");
        }
    }

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating("/cel-policy");

    @Test
    void servesThePoliciesBakedInAtBuildTime() {
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("sandbox", 4, "registry.example.com/web:1")))
                .assertDenied().withCode(422)
                .withMessageContaining("ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding "
                        + "'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no "
                        + "greater than 3");
        FUNCTION.review(ReviewBuilder.create(Policies.deployment("shop", 40, "registry.example.com/web:1")))
                .assertAllowed().assertNoWarnings();

        assertEquals(ConfigFiles.read(BakedPoliciesTest.EXAMPLE_POLICIES.stream().map(java.nio.file.Path::of).toList())
                .size(), BakedPolicies.documents(CelPolicy.FUNCTION).size(), "every document of the baked files");
        assertTrue(PrecompiledExpressions.installedCount() > 0);
        assertEquals(PrecompiledExpressions.installedCount(), PrecompiledExpressions.usedCount(),
                "every expression planned from the build's check");
    }
}
