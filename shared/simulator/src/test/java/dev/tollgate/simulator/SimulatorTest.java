package dev.tollgate.simulator;

import static dev.tollgate.simulator.FakeWebhooks.allow;
import static dev.tollgate.simulator.FakeWebhooks.deny;
import static dev.tollgate.simulator.FakeWebhooks.ops;
import static dev.tollgate.simulator.FakeWebhooks.patch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.admission.Operation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.simulator.CallRecord.Result;

/** The API server's dynamic admission, played against fake webhooks: one behaviour of the documentation per test. */
class SimulatorTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final FakeWebhooks fake = new FakeWebhooks();

    // ---- building blocks ----

    /** One webhook entry (as a YAML list item) matching everything unless {@code extra} says otherwise. */
    static String hook(String name, String path, String extra) {
        StringBuilder sb = new StringBuilder();
        sb.append("- name: ").append(name).append('\n');
        sb.append("  clientConfig: {url: \"https://fake.example").append(path).append("\"}\n");
        if (!extra.contains("rules:")) {
            sb.append("  rules: [{operations: [\"*\"], apiGroups: [\"*\"], apiVersions: [\"*\"], resources: [\"*\"]}]\n");
        }
        if (!extra.contains("sideEffects:")) {
            sb.append("  sideEffects: None\n");
        }
        sb.append("  admissionReviewVersions: [v1]\n");
        for (String line : extra.strip().split("\n")) {
            if (!line.isBlank()) {
                sb.append("  ").append(line).append('\n');
            }
        }
        return sb.toString();
    }

    static ObjectNode config(boolean mutating, String name, String... hooks) {
        String yaml = "apiVersion: admissionregistration.k8s.io/v1\nkind: "
                + (mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration")
                + "\nmetadata: {name: " + name + "}\nwebhooks:\n" + String.join("", hooks);
        try {
            return (ObjectNode) YAML.readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(yaml, e);
        }
    }

    static InputManifest manifest(String yaml) {
        try {
            return new InputManifest("test", (ObjectNode) YAML.readTree(yaml));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static InputManifest pod(String name, String labels) {
        return manifest("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: shop, labels: {%s}}
                spec: {containers: [{name: app, image: nginx}]}
                """.formatted(name, labels));
    }

    private ManifestReport review(List<ObjectNode> configs, InputManifest m, ReviewSettings settings) {
        try (Simulator s = new Simulator(new Configurations(configs), fake,
                new MatchConditionsSupport(KubeCel.standard()))) {
            return s.review(m, settings);
        }
    }

    private ManifestReport review(List<ObjectNode> configs, InputManifest m) {
        return review(configs, m, ReviewSettings.defaults());
    }

    private static CallRecord call(ManifestReport r, String webhook, int round) {
        return r.calls().stream().filter(c -> c.webhook().equals(webhook) && c.round() == round).findFirst()
                .orElseThrow(() -> new AssertionError("no record of " + webhook + " round " + round + ": "
                        + r.calls()));
    }

    // ---- mutating chain ----

    @Test
    void mutatingWebhooksRunInConfigurationNameOrderEachSeeingThePreviousPatch() {
        fake.on("/a", patch(o -> ops("[{\"op\":\"add\",\"path\":\"/metadata/labels/a\",\"value\":\"1\"}]")));
        fake.on("/b", patch(o -> {
            // b runs second and must see a's label already applied.
            assertEquals("1", o.path("metadata").path("labels").path("a").asText());
            return ops("[{\"op\":\"add\",\"path\":\"/metadata/labels/b\",\"value\":\"2\"}]");
        }));
        ManifestReport r = review(List.of(config(true, "zz-second", hook("b.example.com", "/b", "")),
                config(true, "aa-first", hook("a.example.com", "/a", ""))), pod("web", "app: web"));
        assertTrue(r.allowed(), r.message());
        assertEquals(List.of("/a", "/b"), fake.calls);
        assertEquals("1", r.result().path("metadata").path("labels").path("a").asText());
        assertEquals("2", r.result().path("metadata").path("labels").path("b").asText());
        assertEquals(Result.PATCHED, call(r, "a.example.com", 0).result());
        assertEquals("{\"configuration\":\"aa-first\",\"webhook\":\"a.example.com\",\"mutated\":true}",
                r.auditAnnotations().get("mutation.webhook.admission.k8s.io/round_0_index_0"));
        assertTrue(r.auditAnnotations().get("patch.webhook.admission.k8s.io/round_0_index_1").contains("/metadata/labels/b"));
        assertEquals(2, r.patch().size());
    }

    /** counts containers into a label, as a webhook that must see every container would. */
    private static FakeWebhooks.Handler countContainers() {
        return patch(o -> ops("[{\"op\":\"add\",\"path\":\"/metadata/labels/containers\",\"value\":\""
                + o.path("spec").path("containers").size() + "\"}]"));
    }

    private static FakeWebhooks.Handler addSidecarOnce() {
        return patch(o -> o.path("spec").path("containers").size() > 1 ? null
                : ops("[{\"op\":\"add\",\"path\":\"/spec/containers/-\",\"value\":{\"name\":\"proxy\",\"image\":\"envoy\"}}]"));
    }

    /** Sets imagePullPolicy Always on every container that does not have it, as always-pull-images does. */
    private static FakeWebhooks.Handler alwaysPull() {
        return patch(o -> {
            ArrayNode ops = FakeWebhooks.JSON.createArrayNode();
            int i = 0;
            for (JsonNode c : o.path("spec").path("containers")) {
                if (!"Always".equals(c.path("imagePullPolicy").asText())) {
                    ops.addObject().put("op", c.has("imagePullPolicy") ? "replace" : "add")
                            .put("path", "/spec/containers/" + i + "/imagePullPolicy").put("value", "Always");
                }
                i++;
            }
            return ops;
        });
    }

    @Test
    void webhooksSeeTheDefaultedObjectSoAnUntaggedImageNeedsNoPatch() {
        // The API server defaults before mutating admission (pkg/apis/core/v1/defaults.go): nginx has no tag, so
        // its imagePullPolicy is already Always and the webhook changes nothing.
        fake.on("/pull", alwaysPull());
        ManifestReport r = review(List.of(config(true, "m", hook("pull.example.com", "/pull", ""))), pod("web", ""));
        JsonNode sent = fake.received.get("/pull").get(0).path("request").path("object").path("spec");
        assertEquals("Always", sent.path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals("ClusterFirst", sent.path("dnsPolicy").asText());
        assertEquals("{\"configuration\":\"m\",\"webhook\":\"pull.example.com\",\"mutated\":false}",
                r.auditAnnotations().get("mutation.webhook.admission.k8s.io/round_0_index_0"));
        assertEquals(Result.ALLOWED, call(r, "pull.example.com", 0).result());
        assertTrue(r.patch().isEmpty(), "no change by the webhooks");
        assertTrue(r.defaulted().contains("spec.containers[0].imagePullPolicy"), r.defaulted().toString());

        ManifestReport tagged = review(List.of(config(true, "m", hook("pull.example.com", "/pull", ""))),
                manifest("""
                        apiVersion: v1
                        kind: Pod
                        metadata: {name: web, namespace: shop}
                        spec: {containers: [{name: app, image: "nginx:1.25"}]}
                        """));
        assertEquals(Result.PATCHED, call(tagged, "pull.example.com", 0).result());
        assertEquals("[{\"op\":\"replace\",\"path\":\"/spec/containers/0/imagePullPolicy\",\"value\":\"Always\"}]",
                tagged.patch().toString(), "IfNotPresent (the default for a tag) replaced");
    }

    @Test
    void aPatchedObjectIsDefaultedAgainBeforeTheNextWebhook() {
        fake.on("/inject", addSidecarOnce()).on("/look", allow());
        ManifestReport r = review(List.of(config(true, "a", hook("inject.example.com", "/inject", "")),
                config(true, "b", hook("look.example.com", "/look", ""))), pod("web", ""));
        JsonNode proxy = fake.received.get("/look").get(0).path("request").path("object").path("spec")
                .path("containers").get(1);
        assertEquals("proxy", proxy.path("name").asText());
        assertEquals("Always", proxy.path("imagePullPolicy").asText(), "envoy, untagged: defaulted after the patch");
        assertEquals("/dev/termination-log", proxy.path("terminationMessagePath").asText());
        assertEquals("File", r.result().path("spec").path("containers").get(1).path("terminationMessagePolicy")
                .asText());
    }

    @Test
    void ifNeededWebhookIsReinvokedWhenALaterWebhookChangesTheObject() {
        fake.on("/count", countContainers()).on("/inject", addSidecarOnce());
        ManifestReport r = review(List.of(
                config(true, "a", hook("count.example.com", "/count", "reinvocationPolicy: IfNeeded")),
                config(true, "b", hook("inject.example.com", "/inject", ""))), pod("web", ""));
        assertTrue(r.allowed());
        assertEquals(List.of("/count", "/inject", "/count"), fake.calls);
        assertEquals("2", r.result().path("metadata").path("labels").path("containers").asText());
        assertEquals(Result.PATCHED, call(r, "count.example.com", 1).result());
        assertTrue(r.auditAnnotations().containsKey("mutation.webhook.admission.k8s.io/round_1_index_0"));
    }

    @Test
    void neverPolicyIsNotReinvoked() {
        fake.on("/count", countContainers()).on("/inject", addSidecarOnce());
        ManifestReport r = review(List.of(
                config(true, "a", hook("count.example.com", "/count", "reinvocationPolicy: Never")),
                config(true, "b", hook("inject.example.com", "/inject", ""))), pod("web", ""));
        assertEquals(List.of("/count", "/inject"), fake.calls);
        assertEquals("1", r.result().path("metadata").path("labels").path("containers").asText());
    }

    @Test
    void noReinvocationWhenNothingChangesAfterTheIfNeededWebhook() {
        fake.on("/inject", addSidecarOnce()).on("/count", countContainers()).on("/noop", allow());
        review(List.of(config(true, "a", hook("inject.example.com", "/inject", "reinvocationPolicy: IfNeeded")),
                config(true, "b", hook("count.example.com", "/count", "reinvocationPolicy: IfNeeded"))),
                pod("web", ""));
        // count changed the object after inject, so inject runs again (and changes nothing); count, the last to
        // change, is not run again.
        assertEquals(List.of("/inject", "/count", "/inject"), fake.calls);
    }

    @Test
    void aDenialStopsTheChain() {
        fake.on("/deny", deny(403, "no pods on Fridays")).on("/later", allow());
        ManifestReport r = review(List.of(config(true, "a", hook("deny.example.com", "/deny", "")),
                config(false, "v", hook("later.example.com", "/later", ""))), pod("web", ""));
        assertFalse(r.allowed());
        assertEquals(403, r.code());
        assertEquals("admission webhook \"deny.example.com\" denied the request: no pods on Fridays", r.message());
        assertEquals(List.of("/deny"), fake.calls);
    }

    @Test
    void denialMessagesTakeTheApiServerForms() {
        fake.on("/reason", review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ObjectNode resp = (ObjectNode) out.get("response");
            resp.put("allowed", false);
            resp.putObject("status").put("reason", "PolicyViolation").put("code", 200);
            return FakeWebhooks.answer(out);
        }).on("/bare", deny(0, null));
        ManifestReport reason = review(List.of(config(false, "v", hook("reason.example.com", "/reason", ""))),
                pod("web", ""));
        assertEquals("admission webhook \"reason.example.com\" denied the request: PolicyViolation", reason.message());
        assertEquals(400, reason.code(), "a denial never carries a code below 400");
        ManifestReport bare = review(List.of(config(false, "v", hook("bare.example.com", "/bare", ""))),
                pod("web", ""));
        assertEquals("admission webhook \"bare.example.com\" denied the request without explanation", bare.message());
    }

    // ---- failures ----

    @Test
    void callErrorRejectsUnderFailAndIsSkippedUnderIgnore() {
        FakeWebhooks.Handler timeout = review -> {
            throw new WebhookClient.CallFailure("context deadline exceeded", null);
        };
        fake.on("/slow", timeout);
        ManifestReport closed = review(List.of(config(false, "v", hook("slow.example.com", "/slow",
                "failurePolicy: Fail"))), pod("web", ""));
        assertFalse(closed.allowed());
        assertEquals(500, closed.code());
        assertEquals("Internal error occurred: failed calling webhook \"slow.example.com\": failed to call webhook: "
                + "context deadline exceeded", closed.message());
        assertEquals(Result.FAILED_CLOSED, closed.calls().get(0).result());

        ManifestReport open = review(List.of(config(false, "v", hook("slow.example.com", "/slow",
                "failurePolicy: Ignore"))), pod("web", ""));
        assertTrue(open.allowed());
        assertEquals(Result.FAILED_OPEN, open.calls().get(0).result());
        assertEquals("slow.example.com",
                open.auditAnnotations().get("failed-open.validating.webhook.admission.k8s.io/round_0_index_0"));
    }

    @Test
    void failurePolicyDefaultsToFail() {
        fake.on("/down", review -> new WebhookClient.Answer(503, "{\"message\":\"overloaded\"}".getBytes()));
        ManifestReport r = review(List.of(config(true, "m", hook("down.example.com", "/down", ""))), pod("web", ""));
        assertFalse(r.allowed());
        assertEquals("Internal error occurred: failed calling webhook \"down.example.com\": failed to call webhook: "
                + "the server is currently unable to handle the request", r.message());
    }

    @Test
    void aResponseTheApiServerWouldRefuseIsACallError() {
        fake.on("/wrong-uid", review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ((ObjectNode) out.get("response")).put("uid", "another");
            return FakeWebhooks.answer(out);
        });
        fake.on("/patching-validator", patch(o -> ops("[{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"y\"}]")));
        ManifestReport uid = review(List.of(config(false, "v", hook("wrong-uid.example.com", "/wrong-uid", ""))),
                pod("web", ""));
        assertFalse(uid.allowed());
        assertTrue(uid.message().contains("received invalid webhook response: expected response.uid"), uid.message());
        ManifestReport validatorPatch = review(List.of(config(false, "v", hook("patching-validator.example.com",
                "/patching-validator", "failurePolicy: Ignore"))), pod("web", ""));
        assertTrue(validatorPatch.allowed());
        assertEquals(Result.FAILED_OPEN, validatorPatch.calls().get(0).result());
        assertTrue(validatorPatch.calls().get(0).detail().contains("must not return patch"));
        assertTrue(validatorPatch.patch().isEmpty(), "a validating webhook's patch is never applied");
    }

    @Test
    void aPatchThatDoesNotApplyRejectsWhateverTheFailurePolicy() {
        fake.on("/bad", patch(o -> ops("[{\"op\":\"replace\",\"path\":\"/spec/nothing/here\",\"value\":1}]")));
        ManifestReport r = review(List.of(config(true, "m", hook("bad.example.com", "/bad", "failurePolicy: Ignore"))),
                pod("web", ""));
        assertFalse(r.allowed());
        assertEquals(Result.REJECTED, r.calls().get(0).result());
    }

    // ---- validating ----

    @Test
    void validatingWebhooksAreCalledConcurrentlyOnTheMutatedObject() {
        // Each validating webhook waits for the other to be in flight: called one after the other, both would fail.
        CyclicBarrier both = new CyclicBarrier(2);
        FakeWebhooks.Handler meet = review -> {
            both.await(30, TimeUnit.SECONDS);
            assertEquals("Always", review.path("request").path("object").path("spec").path("containers").path(0)
                    .path("imagePullPolicy").asText());
            return FakeWebhooks.answer(FakeWebhooks.response(review));
        };
        fake.on("/pull", patch(o -> ops("[{\"op\":\"add\",\"path\":\"/spec/containers/0/imagePullPolicy\",\"value\":\"Always\"}]")))
                .on("/v1", meet).on("/v2", meet);
        ManifestReport r = review(List.of(config(true, "m", hook("pull.example.com", "/pull", "")),
                config(false, "v", hook("one.example.com", "/v1", ""), hook("two.example.com", "/v2", ""))),
                pod("web", ""));
        assertTrue(r.allowed(), r.message() + r.calls());
        assertEquals(List.of("pull.example.com", "one.example.com", "two.example.com"),
                r.calls().stream().map(CallRecord::webhook).toList());
    }

    @Test
    void warningsAndAuditAnnotationsAreCollected() {
        fake.on("/warn", review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ObjectNode resp = (ObjectNode) out.get("response");
            resp.putArray("warnings").add("image tag latest is mutable");
            resp.putObject("auditAnnotations").put("decision", "allowed-with-warning");
            return FakeWebhooks.answer(out);
        });
        ManifestReport r = review(List.of(config(false, "v", hook("warn.example.com", "/warn", ""))), pod("web", ""));
        assertEquals(List.of("image tag latest is mutable"), r.warnings());
        assertEquals("allowed-with-warning", r.auditAnnotations().get("warn.example.com/decision"));
    }

    @Test
    void warningsOfEveryWebhookAreShownWholeUntilTheRequestTotalPasses4096() {
        // The API server's recorder (apiserver pkg/endpoints/filters/warning.go) covers the whole request: long
        // warnings are kept whole; once all webhooks' warnings pass 4096 characters, each is cut to 256 and the
        // rest dropped when the cut total is reached. A repeated text is shown once.
        FakeWebhooks.Handler warns = review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ArrayNode w = ((ObjectNode) out.get("response")).putArray("warnings");
            w.add("long " + "a".repeat(1000)).add("shared warning");
            return FakeWebhooks.answer(out);
        };
        fake.on("/one", warns).on("/two", review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ArrayNode w = ((ObjectNode) out.get("response")).putArray("warnings");
            w.add("shared warning");
            return FakeWebhooks.answer(out);
        });
        ManifestReport whole = review(List.of(config(false, "v", hook("one.example.com", "/one", ""),
                hook("two.example.com", "/two", ""))), pod("web", ""));
        assertEquals(List.of("long " + "a".repeat(1000), "shared warning"), whole.warnings());

        fake.on("/many", review -> {
            ObjectNode out = FakeWebhooks.response(review);
            ArrayNode w = ((ObjectNode) out.get("response")).putArray("warnings");
            for (int i = 0; i < 5; i++) {
                w.add(i + "b".repeat(999)); // 1000 characters each: the fifth passes 4096
            }
            return FakeWebhooks.answer(out);
        });
        ManifestReport cut = review(List.of(config(false, "v", hook("many.example.com", "/many", ""))),
                pod("web", ""));
        assertEquals(5, cut.warnings().size());
        cut.warnings().forEach(w -> assertEquals(256, w.length()));
        assertEquals(1000, cut.calls().get(0).warnings().get(0).length(), "the call record keeps what it returned");
    }

    // ---- matching ----

    @Test
    void namespaceSelectorUsesTheNamespaceLabels() {
        fake.on("/prod", allow());
        String selector = "namespaceSelector: {matchLabels: {env: prod}}";
        List<ObjectNode> configs = List.of(config(false, "v", hook("prod.example.com", "/prod", selector)));
        InputManifest prodNs = manifest("{apiVersion: v1, kind: Namespace, metadata: {name: shop, labels: {env: prod}}}");
        ManifestReport inProd = review(configs, pod("web", ""), ReviewSettings.defaults().withNamespaces(List.of(prodNs)));
        assertEquals(Result.ALLOWED, inProd.calls().get(0).result());
        ManifestReport unknownNs = review(configs, pod("web", ""));
        assertEquals(Result.SKIPPED, unknownNs.calls().get(0).result());
        assertTrue(unknownNs.calls().get(0).detail().contains("namespaceSelector"));
        assertTrue(unknownNs.notes().get(0).contains("assumed"), unknownNs.notes().toString());
    }

    @Test
    void aNamespaceObjectIsSelectedByItsOwnLabelsAndClusterObjectsAreNeverExcluded() {
        fake.on("/prod", allow());
        List<ObjectNode> configs = List.of(config(false, "v", hook("prod.example.com", "/prod",
                "namespaceSelector: {matchLabels: {env: prod}}")));
        ManifestReport prod = review(configs, manifest("{apiVersion: v1, kind: Namespace, metadata: {name: p, labels: {env: prod}}}"));
        assertEquals(Result.ALLOWED, prod.calls().get(0).result());
        assertEquals("p", fake.received.get("/prod").get(0).path("request").path("namespace").asText());
        ManifestReport dev = review(configs, manifest("{apiVersion: v1, kind: Namespace, metadata: {name: d, labels: {env: dev}}}"));
        assertEquals(Result.SKIPPED, dev.calls().get(0).result());
        ManifestReport cluster = review(configs, manifest("""
                {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: reader}, rules: []}"""));
        assertEquals(Result.ALLOWED, cluster.calls().get(0).result(), "namespaceSelector does not apply to cluster-scoped objects");
    }

    @Test
    void objectSelectorMatchesTheNewOrTheOldObject() {
        fake.on("/sel", allow());
        List<ObjectNode> configs = List.of(config(false, "v", hook("sel.example.com", "/sel",
                "objectSelector: {matchLabels: {managed: \"yes\"}}")));
        assertEquals(Result.SKIPPED, review(configs, pod("web", "")).calls().get(0).result());
        assertEquals(Result.ALLOWED, review(configs, pod("web", "managed: \"yes\"")).calls().get(0).result());
        // UPDATE that removes the label: the old object still matches, so the webhook sees the change.
        ReviewSettings update = ReviewSettings.defaults().withOperation(Operation.UPDATE,
                List.of(pod("web", "managed: \"yes\"")));
        ManifestReport r = review(configs, pod("web", ""), update);
        assertEquals(Result.ALLOWED, r.calls().get(0).result());
        JsonNode req = fake.received.get("/sel").get(1).path("request");
        assertEquals("UPDATE", req.path("operation").asText());
        assertEquals("yes", req.path("oldObject").path("metadata").path("labels").path("managed").asText());
        // DELETE: only the old object exists.
        ManifestReport del = review(configs, pod("web", "managed: \"yes\""),
                ReviewSettings.defaults().withOperation(Operation.DELETE, List.of()));
        assertEquals(Result.ALLOWED, del.calls().get(0).result());
        assertTrue(fake.received.get("/sel").get(2).path("request").path("object").isNull());
    }

    @Test
    void updateWithoutTheOldObjectIsAnInputError() {
        assertThrows(InputException.class, () -> review(List.of(), pod("web", ""),
                ReviewSettings.defaults().withOperation(Operation.UPDATE, List.of())));
    }

    @Test
    void rulesMatchOperationsResourcesAndScope() {
        fake.on("/deploy", allow());
        String rules = "rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments], "
                + "scope: Namespaced}]";
        List<ObjectNode> configs = List.of(config(false, "v", hook("deploy.example.com", "/deploy",
                rules + "\nmatchPolicy: Exact")));
        ManifestReport podReport = review(configs, pod("web", ""));
        assertEquals("no rule matches CREATE v1 pods", podReport.calls().get(0).detail());
        InputManifest deployment = manifest("{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {}}");
        ManifestReport created = review(configs, deployment);
        assertEquals(Result.ALLOWED, created.calls().get(0).result());
        assertEquals("default", created.namespace(), "namespaced objects without a namespace go to the default one");
        ManifestReport deleted = review(configs, deployment, ReviewSettings.defaults().withOperation(Operation.DELETE,
                List.of()));
        assertEquals(Result.SKIPPED, deleted.calls().get(0).result());
    }

    @Test
    void equivalentMatchPolicySendsTheRegisteredVersion() {
        fake.on("/deploy", allow());
        String rules = "rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]";
        InputManifest old = manifest("{apiVersion: extensions/v1beta1, kind: Deployment, metadata: {name: d}, spec: {}}");
        ManifestReport exact = review(List.of(config(false, "v", hook("deploy.example.com", "/deploy",
                rules + "\nmatchPolicy: Exact"))), old);
        assertEquals(Result.SKIPPED, exact.calls().get(0).result());
        ManifestReport equivalent = review(List.of(config(false, "v", hook("deploy.example.com", "/deploy",
                rules + "\nmatchPolicy: Equivalent"))), old);
        assertEquals(Result.ALLOWED, equivalent.calls().get(0).result());
        JsonNode req = fake.received.get("/deploy").get(0).path("request");
        assertEquals("apps", req.path("kind").path("group").asText());
        assertEquals("extensions", req.path("requestKind").path("group").asText());
        assertEquals("apps/v1", req.path("object").path("apiVersion").asText());
    }

    /** A Tollgate function's exceptions and enforcement modes, as the report shows them beside the verdict. */
    @Test
    void exceptionsAndEnforcementModesAreShownBesideTheAnswer() {
        fake.on("/audit", review -> {
            ObjectNode r = FakeWebhooks.response(review);
            ((ObjectNode) r.get("response")).putObject("auditAnnotations").put("would_deny", "no team label");
            return FakeWebhooks.answer(r);
        });
        fake.on("/warn", review -> {
            ObjectNode r = FakeWebhooks.response(review);
            ((ObjectNode) r.get("response")).putArray("warnings")
                    .add("Validation failed for function 'require-labels': no team label");
            return FakeWebhooks.answer(r);
        });
        fake.on("/excepted", review -> {
            ObjectNode r = FakeWebhooks.response(review);
            ((ObjectNode) r.get("response")).putObject("auditAnnotations").put("excepted_by", "legacy-shop");
            return FakeWebhooks.answer(r);
        });
        fake.on("/mutating-audit", review -> {
            ObjectNode r = FakeWebhooks.response(review);
            ((ObjectNode) r.get("response")).putObject("auditAnnotations").put("would_patch",
                    "[{\"op\":\"add\",\"path\":\"/metadata/labels/a\",\"value\":\"1\"}]");
            return FakeWebhooks.answer(r);
        });
        String exception = """
                matchConditions:
                - name: exception.tollgate.dev/batch-jobs
                  expression: "!(has(object.metadata.labels) && 'team' in object.metadata.labels && object.metadata.labels['team'] == 'batch')"
                """;
        ManifestReport r = review(List.of(
                config(true, "m", hook("mutating-audit.example.com", "/mutating-audit", "")),
                config(false, "v", hook("audit.example.com", "/audit", ""), hook("warn.example.com", "/warn", ""),
                        hook("excepted.example.com", "/excepted", ""),
                        hook("batch.example.com", "/excepted", exception))), pod("web", "team: batch"));
        assertTrue(r.allowed());
        assertEquals("audit mode: the policy's patch was not sent (1 operation)",
                call(r, "mutating-audit.example.com", 0).detail());
        assertEquals("audit mode: the policy denied: no team label", call(r, "audit.example.com", 0).detail());
        assertEquals("warn mode: the policy denied, answered as a warning", call(r, "warn.example.com", 0).detail());
        assertEquals("excepted by legacy-shop (applied by the function)", call(r, "excepted.example.com", 0).detail());
        CallRecord skipped = call(r, "batch.example.com", 0);
        assertEquals(Result.SKIPPED, skipped.result());
        assertEquals("matchConditions: excepted by batch-jobs ('exception.tollgate.dev/batch-jobs' is false)",
                skipped.detail());
        assertTrue(Reports.text(List.of(r), false).contains("audit mode: the policy denied: no team label"),
                Reports.text(List.of(r), false));
    }

    @Test
    void matchConditionsDecideWithCel() {
        fake.on("/cel", allow());
        String conditions = """
                matchConditions:
                - name: not-skipped
                  expression: "object.metadata.name != 'skip-me'"
                """;
        List<ObjectNode> configs = List.of(config(false, "v", hook("cel.example.com", "/cel", conditions)));
        ManifestReport skipped = review(configs, pod("skip-me", ""));
        assertEquals(Result.SKIPPED, skipped.calls().get(0).result());
        assertEquals("matchConditions: 'not-skipped' is false", skipped.calls().get(0).detail());
        assertEquals(Result.ALLOWED, review(configs, pod("web", "")).calls().get(0).result());
    }

    @Test
    void matchConditionErrorsFollowFailurePolicyUnlessAConditionIsFalse() {
        fake.on("/cel", allow());
        String failing = """
                - name: broken
                  expression: "object.spec.missing == 1"
                """;
        ManifestReport fail = review(List.of(config(false, "v", hook("cel.example.com", "/cel",
                "failurePolicy: Fail\nmatchConditions:\n" + failing))), pod("web", ""));
        assertFalse(fail.allowed());
        assertTrue(fail.message().contains("failed to evaluate matchConditions"), fail.message());
        ManifestReport ignore = review(List.of(config(false, "v", hook("cel.example.com", "/cel",
                "failurePolicy: Ignore\nmatchConditions:\n" + failing))), pod("web", ""));
        assertTrue(ignore.allowed());
        assertEquals(Result.FAILED_OPEN, ignore.calls().get(0).result());
        ManifestReport falseWins = review(List.of(config(false, "v", hook("cel.example.com", "/cel",
                "failurePolicy: Fail\nmatchConditions:\n" + failing + "- name: never\n  expression: \"false\"\n"))),
                pod("web", ""));
        assertTrue(falseWins.allowed(), "a false condition skips the webhook even when another one errs");
        assertTrue(fake.calls.isEmpty());
    }

    @Test
    void matchConditionsThatDoNotCompileAreAnInputError() {
        MatchConditionsSupport support = new MatchConditionsSupport(KubeCel.standard());
        Configurations bad = new Configurations(List.of(config(false, "v", hook("cel.example.com", "/cel",
                "matchConditions:\n- name: typo\n  expression: \"object.metadata.name ==\"\n"))));
        InputException e = assertThrows(InputException.class, () -> support.compileAll(bad));
        assertTrue(e.getMessage().contains("typo"), e.getMessage());
    }

    // ---- dry run ----

    @Test
    void dryRunIsSentAndRefusedByWebhooksWithSideEffects() {
        fake.on("/safe", allow()).on("/effects", allow());
        ReviewSettings dry = ReviewSettings.defaults().withDryRun(true);
        ManifestReport ok = review(List.of(config(false, "v", hook("safe.example.com", "/safe",
                "sideEffects: NoneOnDryRun"))), pod("web", ""), dry);
        assertTrue(ok.allowed());
        assertTrue(ok.dryRun());
        JsonNode req = fake.received.get("/safe").get(0).path("request");
        assertTrue(req.path("dryRun").asBoolean());
        assertEquals("All", req.path("options").path("dryRun").path(0).asText());
        // sideEffects Some/Unknown (admissionregistration v1beta1 values) cannot take a dry run.
        ManifestReport refused = review(List.of(config(false, "v", hook("effects.example.com", "/effects",
                "sideEffects: Unknown\nfailurePolicy: Ignore"))), pod("web", ""), dry);
        assertFalse(refused.allowed());
        assertEquals(400, refused.code());
        assertEquals("admission webhook \"effects.example.com\" does not support dry run", refused.message());
        assertFalse(fake.received.containsKey("/effects"));
    }

    @Test
    void webhookConfigurationObjectsNeverReachWebhooks() {
        fake.on("/all", deny(403, "no"));
        ManifestReport r = review(List.of(config(false, "v", hook("all.example.com", "/all", ""))),
                new InputManifest("x", config(false, "other", hook("x.example.com", "/x", ""))));
        assertTrue(r.allowed());
        assertTrue(r.calls().isEmpty());
        assertTrue(fake.calls.isEmpty());
    }

    @Test
    void reviewsCarryTheUserAndOneUidPerRequest() {
        fake.on("/a", allow()).on("/b", allow());
        review(List.of(config(true, "m", hook("a.example.com", "/a", "")),
                config(false, "v", hook("b.example.com", "/b", ""))), pod("web", ""),
                new ReviewSettings(Operation.CREATE, List.of(), List.of(), "jane", List.of("devs"), false, "default"));
        JsonNode a = fake.received.get("/a").get(0).path("request");
        JsonNode b = fake.received.get("/b").get(0).path("request");
        assertEquals(a.path("uid"), b.path("uid"));
        assertEquals("jane", a.path("userInfo").path("username").asText());
        assertEquals("devs", a.path("userInfo").path("groups").path(0).asText());
        assertEquals("shop", a.path("namespace").asText());
        assertEquals("web", a.path("name").asText());
    }

    @Test
    void reportsReadAndParse() throws Exception {
        fake.on("/deny", deny(403, "missing label team"));
        List<ManifestReport> reports = new ArrayList<>();
        reports.add(review(List.of(config(false, "v", hook("deny.example.com", "/deny", ""))), pod("web", "")));
        String text = Reports.text(reports);
        assertTrue(text.contains("DENIED (403): admission webhook \"deny.example.com\" denied the request: "
                + "missing label team"), text);
        assertTrue(text.contains("1 manifest: 0 allowed, 1 denied"), text);
        JsonNode json = FakeWebhooks.JSON.readTree(Reports.json(reports));
        assertEquals(1, json.path("summary").path("denied").asInt());
        assertEquals("denied", json.path("manifests").path(0).path("webhooks").path(0).path("result").asText());
    }
}
