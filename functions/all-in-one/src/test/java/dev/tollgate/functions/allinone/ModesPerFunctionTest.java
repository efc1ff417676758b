package dev.tollgate.functions.allinone;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.testing.Manifests;
import dev.tollgate.testing.Pods;
import dev.tollgate.testing.ReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Issue 45: one bundle, two clusters, one function trialled in warn mode in one cluster
 * (tollgate.enforcement.function-cluster-modes, as the Terraform module enforcement writes it for
 * {@code function_clusters = {require-labels = {west = warn}}}): require-labels warns in west and still denies in
 * east; Pod Security, served by the same process, still denies a privileged pod in west.
 */
@QuarkusTest
@TestProfile(ModesPerFunctionTest.WestTrialsRequireLabels.class)
class ModesPerFunctionTest {

    static final String EAST = "east-token-0123456789abcdef";
    static final String WEST = "west-token-0123456789abcdef";

    public static class WestTrialsRequireLabels implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "tollgate.auth.required", "true",
                    "tollgate.auth.clusters.east.path-token.values", EAST,
                    "tollgate.auth.clusters.west.path-token.values", WEST,
                    "tollgate.enforcement.function-cluster-modes", "require-labels.west=warn");
        }
    }

    static JsonNode post(String token, String path, JsonNode review) {
        return Manifests.parse(given().contentType("application/json").body(Manifests.toJson(review))
                .post("/" + token + path).then().statusCode(200).extract().asString()).path("response");
    }

    static JsonNode unlabelledDeployment() {
        return ReviewBuilder.create(Manifests.parse("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: checkout, namespace: shop}
                spec:
                  selector: {matchLabels: {app: checkout}}
                  template:
                    metadata: {labels: {app: checkout}}
                    spec: {containers: [{name: app, image: registry.example.com/shop/checkout:1}]}
                """)).build();
    }

    @Test
    void oneFunctionWarnsInOneClusterWhileTheOthersAndTheOtherClusterEnforce() {
        JsonNode west = post(WEST, "/require-labels", unlabelledDeployment());
        assertTrue(west.path("allowed").asBoolean(), west.toString());
        assertTrue(west.path("warnings").path(0).asText().startsWith("Validation failed for function "
                + "'require-labels'"), west.toString());
        JsonNode east = post(EAST, "/require-labels", unlabelledDeployment());
        assertFalse(east.path("allowed").asBoolean(), east.toString());
        com.fasterxml.jackson.databind.node.ObjectNode pod = Pods.minimal("root");
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod.path("spec").path("containers").path(0))
                .putObject("securityContext").put("privileged", true);
        JsonNode privileged = ReviewBuilder.create(pod).build();
        JsonNode podSecurity = post(WEST, "/pod-security/enforce/baseline/latest", privileged);
        assertFalse(podSecurity.path("allowed").asBoolean(), "Pod Security is not softened in west: " + podSecurity);
        assertEquals(403, podSecurity.path("status").path("code").asInt(), podSecurity.toString());
    }
}
