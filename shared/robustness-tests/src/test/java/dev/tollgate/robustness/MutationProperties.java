package dev.tollgate.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.JsonPatches;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.AdmissionTester;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * For every mutating function and many generated requests (pods with odd containers, labels whose keys need JSON
 * Pointer escaping, subresources, updates, both review versions): the answer passes the API server's checks (the
 * test kit runs them on every response), the patch applies to the object it was computed from and gives exactly
 * what the policy produced, and reviewing the patched object again produces no patch.
 */
class MutationProperties {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    record Case(String function, ReviewVersion version, Operation operation, String subResource, String resource,
            ObjectNode object, ObjectNode oldObject) {
        ReviewBuilder builder() {
            ReviewBuilder b = switch (operation) {
                case UPDATE -> ReviewBuilder.update(object, oldObject);
                default -> ReviewBuilder.create(object);
            };
            return b.version(version).resource(resource.equals("deployments") ? "apps" : "", "v1", resource)
                    .subResource(subResource);
        }
    }

    @Property(tries = 300)
    @StatisticsReport(onFailureOnly = true) // the coverage check below asserts what the table would show
    void patchAppliesAndSecondReviewChangesNothing(@ForAll("cases") Case c) {
        AdmissionTester tester = AdmissionTester.of(MutatingFunctions.ALL.get(c.function()).get());
        ReviewResult result = tester.review(c.builder());
        ArrayNode patch = result.patch();
        JsonNode patched = JsonPatches.apply(patch, c.object());
        assertEquals(patched, result.patchedObject());
        if (!patch.isEmpty()) {
            assertEquals(patched, JsonPatches.apply(JsonPatches.diff(c.object(), patched), c.object()));
        }
        if (result.allowed()) {
            result.assertIdempotent();
        }
        // The generated cases must reach the mutations, or the properties would hold trivially.
        Statistics.collect(c.function(), patch.isEmpty() ? "unchanged" : "patched");
        Statistics.coverage(cover -> MutatingFunctions.ALL.keySet()
                .forEach(f -> cover.check(f, "patched").count(n -> n > 0)));
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> functions = Arbitraries.of(List.copyOf(MutatingFunctions.ALL.keySet()));
        Arbitrary<Operation> ops = Arbitraries.of(Operation.CREATE, Operation.UPDATE);
        Arbitrary<String> subs = Arbitraries.of("", "", "", "ephemeralcontainers", "status");
        Arbitrary<String> resources = Arbitraries.of("pods", "pods", "pods", "deployments");
        return Combinators.combine(functions, Arbitraries.of(ReviewVersion.values()), ops, subs, resources,
                pods(), pods()).as(Case::new);
    }

    private static Arbitrary<ObjectNode> pods() {
        Arbitrary<ArrayNode> containers = container().list().ofMaxSize(3).map(list -> {
            ArrayNode a = F.arrayNode();
            list.forEach(a::add);
            return a;
        });
        Arbitrary<ObjectNode> labels = Arbitraries.maps(
                Arbitraries.of("app", "team", "app.kubernetes.io/name", "a~b", "x/y~1z", "tollgate.dev/weird~0",
                        "example.com/team"),
                Arbitraries.strings().alpha().numeric().ofMaxLength(8)).ofMaxSize(3).map(m -> {
                    ObjectNode o = F.objectNode();
                    m.forEach(o::put);
                    return o;
                });
        Arbitrary<String> namespaces = Arbitraries.of("shop", "shop", "batch", "default", "elsewhere");
        return Combinators.combine(labels, containers, containers, containers, Arbitraries.integers().between(0, 7),
                namespaces).as((l, init, main, eph, shape, namespace) -> {
                    ObjectNode pod = F.objectNode();
                    pod.put("apiVersion", "v1").put("kind", "Pod");
                    ObjectNode meta = pod.putObject("metadata");
                    meta.put("name", "p").put("namespace", namespace);
                    if (!l.isEmpty() || (shape & 1) == 0) {
                        meta.set("labels", l); // sometimes no labels map at all
                    }
                    ObjectNode spec = pod.putObject("spec");
                    // Vary which lists exist: a policy must not trip on absent lists.
                    if ((shape & 1) != 0) {
                        spec.set("initContainers", init);
                        if (init.size() > 0 && init.get(0).isObject() && (shape & 4) != 0) {
                            ((ObjectNode) init.get(0)).put("name", "mesh-proxy"); // already has the sidecar
                        }
                    }
                    spec.set("containers", main);
                    if ((shape & 2) != 0) {
                        spec.set("ephemeralContainers", eph);
                    }
                    if ((shape & 4) != 0) {
                        spec.put("restartPolicy", "Never");
                    }
                    return pod;
                });
    }

    private static Arbitrary<JsonNode> container() {
        Arbitrary<String> images = Arbitraries.of("nginx", "nginx:1.27", "registry.example/a/b@sha256:abc", "",
                "busybox");
        Arbitrary<JsonNode> policies = Arbitraries.of("Always", "IfNotPresent", "Never", "", "absent", "number")
                .map(p -> switch (p) {
                    case "absent" -> null;
                    case "number" -> F.numberNode(5);
                    default -> F.textNode(p);
                });
        Arbitrary<JsonNode> objects = Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6),
                images, policies).as((name, image, policy) -> {
                    ObjectNode c = F.objectNode();
                    c.put("name", name);
                    c.put("image", image);
                    if (policy != null) {
                        c.set("imagePullPolicy", policy);
                    }
                    return c;
                });
        // Now and then something that is not a container object at all.
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, objects),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(F.textNode("not-a-container"))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(F.nullNode())));
    }
}
