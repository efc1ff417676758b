package dev.tollgate.simulator.replay;

import static dev.tollgate.simulator.replay.AuditLines.denied;
import static dev.tollgate.simulator.replay.AuditLines.event;
import static dev.tollgate.simulator.replay.AuditLines.patchAnnotation;
import static dev.tollgate.simulator.replay.AuditLines.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.MatchConditionsSupport;
import dev.tollgate.simulator.Simulator;
import dev.tollgate.simulator.WebhookClient;

/**
 * The replay through the simulator with webhooks faked in this process: a validating {@code registry} webhook that
 * allows images under a prefix (the policy the tests change) and warns about tags other than pinned ones, and a
 * mutating {@code pull} webhook that sets imagePullPolicy Always.
 */
class ReplayerTest {

    static final Function<String, String> FUNCTION = w -> w.substring(0, w.indexOf('.'));
    static final String PULL_PATCH = "[{\"op\":\"replace\",\"path\":\"/spec/containers/0/imagePullPolicy\","
            + "\"value\":\"Always\"}]";

    static ObjectNode configuration(boolean mutating, String webhook, String path) {
        ObjectNode c = AuditLines.JSON.createObjectNode().put("apiVersion", "admissionregistration.k8s.io/v1")
                .put("kind", mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration");
        c.putObject("metadata").put("name", "tollgate");
        ObjectNode w = c.putArray("webhooks").addObject().put("name", webhook).put("sideEffects", "None");
        w.putObject("clientConfig").put("url", "https://fake.example" + path);
        w.putArray("admissionReviewVersions").add("v1");
        ObjectNode rule = w.putArray("rules").addObject();
        rule.putArray("operations").add("CREATE").add("UPDATE");
        rule.putArray("apiGroups").add("");
        rule.putArray("apiVersions").add("v1");
        rule.putArray("resources").add("pods");
        return c;
    }

    /** The fake webhooks; {@code trusted} are the registry prefixes the validating one allows (comma-separated). */
    static WebhookClient webhooks(String trusted, boolean warnOnTags) {
        return (webhook, body) -> {
            try {
                JsonNode review = AuditLines.JSON.readTree(body);
                JsonNode request = review.path("request");
                ObjectNode response = AuditLines.JSON.createObjectNode().put("uid", request.path("uid").asText());
                String image = request.path("object").path("spec").path("containers").path(0).path("image").asText();
                if (webhook.url().endsWith("/labels")) {
                    boolean ok = !request.path("object").path("metadata").path("labels").has("forbidden");
                    response.put("allowed", ok);
                    if (!ok) {
                        response.putObject("status").put("code", 403).put("message", "label forbidden");
                    }
                } else if (webhook.url().endsWith("/registry")) {
                    boolean ok = java.util.Arrays.stream(trusted.split(",")).anyMatch(image::startsWith);
                    response.put("allowed", ok);
                    if (!ok) {
                        response.putObject("status").put("code", 403).put("message", image + " is not under "
                                + trusted);
                    }
                    if (warnOnTags && image.endsWith(":latest")) {
                        response.putArray("warnings").add("image " + image + " uses the latest tag");
                    }
                } else {
                    response.put("allowed", true);
                    // The API server defaults imagePullPolicy (IfNotPresent for a pinned tag) before the call.
                    if (!request.path("object").path("spec").path("containers").path(0).path("imagePullPolicy")
                            .asText().equals("Always")) {
                        response.put("patchType", "JSONPatch").put("patch", Base64.getEncoder().encodeToString(
                                PULL_PATCH.getBytes(StandardCharsets.UTF_8)));
                    }
                }
                ObjectNode out = AuditLines.JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                        .put("kind", "AdmissionReview");
                out.set("response", response);
                return new WebhookClient.Answer(200, out.toString().getBytes(StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                throw new WebhookClient.CallFailure("bad review", e);
            }
        };
    }

    static Configurations configurations() {
        return new Configurations(List.of(
                configuration(true, "pull.tollgate.dev", "/pull"),
                configuration(false, "registry.tollgate.dev", "/registry"),
                configuration(false, "labels.tollgate.dev", "/labels")));
    }

    static Simulator simulator(String trusted, boolean warnOnTags) {
        Configurations configurations = configurations();
        return new Simulator(configurations, webhooks(trusted, warnOnTags),
                new MatchConditionsSupport(KubeCel.standard()));
    }

    /** An allowed create as the API server logged it: the pull webhook's patch recorded. */
    static ObjectNode allowedCreate(String name, String image) {
        return patchAnnotation(event("Request", "create", name, pod(name, image), null), 0, 0, "pull.tollgate.dev",
                PULL_PATCH);
    }

    static ObjectNode deniedCreate(String name, String image, String trusted) {
        return patchAnnotation(event("Request", "create", name, pod(name, image),
                denied("registry.tollgate.dev", image + " is not under " + trusted)), 0, 0, "pull.tollgate.dev",
                PULL_PATCH);
    }

    static ReplayReport replay(Simulator candidate, Simulator baseline, int examples, List<? extends Object> lines)
            throws Exception {
        ReplayReport report = new ReplayReport(examples);
        StringBuilder log = new StringBuilder();
        lines.forEach(l -> log.append(l).append('\n'));
        new Replayer(candidate, baseline, FUNCTION, new ReplayReader(FUNCTION, 100, Map.of()), report)
                .replay("audit.log", new BufferedReader(new StringReader(log.toString())), () -> { });
        return report;
    }

    static List<Object> log() {
        return List.of(
                allowedCreate("web", "registry.example.com/shop/web:1"),               // 1: stays allowed
                allowedCreate("tools", "registry.example.com/tools/kit:2"),            // 2: allowed -> denied
                deniedCreate("mirror", "mirror.example.com/web:1", "registry.example.com/"), // 3: denied -> allowed
                deniedCreate("evil", "evil.example.com/x:1", "registry.example.com/"), // 4: denied, message changes
                "not an audit line",                                                   // 5
                event("Metadata", "create", "meta", pod("meta", "x"), null),           // 6
                event("Request", "patch", "web", pod("web", "x"), null));              // 7
    }

    @Test
    void theSamePolicyAgainstItsOwnLogChangesNothing() throws Exception {
        try (Simulator same = simulator("registry.example.com/", false)) {
            ReplayReport r = replay(same, null, 3, log());
            assertEquals(4, r.replayed());
            assertEquals(0, r.changed(), ReplayOutput.text(run(), r));
            assertEquals(4, r.functions().get("registry").unchanged());
            assertEquals(4, r.functions().get("pull").unchanged(), "the recorded patches are the replayed ones");
        }
    }

    @Test
    void aChangedPolicyFlipsExactlyTheRequestsItShould() throws Exception {
        try (Simulator changed = simulator("registry.example.com/shop/,mirror.example.com/", false)) {
            // Tightened to registry.example.com/shop/ and loosened to mirror.example.com/: both in one policy.
            ReplayReport r = replay(changed, null, 3, log());
            ReplayReport.FunctionStats registry = r.functions().get("registry");
            assertEquals(List.of("Pod shop/tools (CREATE)"), refs(registry, Change.ALLOWED_TO_DENIED));
            assertEquals(List.of("Pod shop/mirror (CREATE)"), refs(registry, Change.DENIED_TO_ALLOWED));
            assertEquals(List.of("Pod shop/evil (CREATE)"), refs(registry, Change.MESSAGE_CHANGED));
            assertEquals("audit.log:2", registry.examples(Change.ALLOWED_TO_DENIED).get(0).source());
            assertEquals(1, registry.unchanged());
            assertEquals(3, r.changed());
            assertEquals(0, r.functions().get("pull").count(Change.PATCH_CHANGED));
            assertEquals(1, r.unreadable());
            assertEquals("audit.log:5", r.unreadableExamples().get(0).source());
            assertEquals(1, r.notReplayed().get(ReplayReader.NO_OBJECT).count());
            assertEquals("audit.log:6", r.notReplayed().get(ReplayReader.NO_OBJECT).firstSource());
            assertEquals(1, r.notReplayed().get(ReplayReader.PATCH).count());
            String text = ReplayOutput.text(run(), r);
            assertTrue(text.contains("== registry: allowed->denied (1)"), text);
            assertTrue(text.contains("Warnings are compared only against a served baseline"), text);
            JsonNode json = AuditLines.JSON.readTree(ReplayOutput.json(run(), r));
            assertEquals(1, json.path("functions").path("registry").path("changes").path("deniedToAllowed")
                    .path("count").asInt());
            assertEquals("Pod shop/mirror (CREATE)", json.path("functions").path("registry").path("changes")
                    .path("deniedToAllowed").path("examples").path(0).path("object").asText());
        }
    }


    /** A webhook configuration written, as the API server logs it at Metadata level (no object) at {@code time}. */
    static ObjectNode configurationWritten(String kind, String name, String time) {
        ObjectNode e = AuditLines.JSON.createObjectNode();
        e.put("kind", "Event").put("apiVersion", "audit.k8s.io/v1").put("level", "Metadata")
                .put("auditID", "id-" + name).put("stage", "ResponseComplete").put("verb", "create")
                .put("requestURI", "/apis/admissionregistration.k8s.io/v1/" + kind)
                .put("requestReceivedTimestamp", time).put("stageTimestamp", time);
        e.putObject("objectRef").put("resource", kind).put("name", name).put("apiGroup",
                "admissionregistration.k8s.io").put("apiVersion", "v1");
        e.putObject("responseStatus").put("code", 201);
        return e;
    }

    static ObjectNode at(ObjectNode event, String time) {
        return event.put("requestReceivedTimestamp", time).put("stageTimestamp", time);
    }

    @Test
    void requestsMadeBeforeTheirWebhooksWereRegisteredAreListedApartNotAsChanges() throws Exception {
        // Issue 45: the API server's own objects are logged before any webhook exists; the log shows when the
        // validating configuration was created (Metadata level: its webhooks are not in the event).
        List<Object> lines = List.of(
                at(allowedCreate("early", "registry.example.com/tools/kit:1"), "2026-01-01T00:00:01.000000Z"),
                configurationWritten("validatingwebhookconfigurations", "tollgate", "2026-01-01T00:00:02.000000Z"),
                at(allowedCreate("late", "registry.example.com/tools/kit:1"), "2026-01-01T00:00:03.000000Z"));
        StringBuilder log = new StringBuilder();
        lines.forEach(l -> log.append(l).append('\n'));
        Registrations registrations = Registrations.none();
        registrations.scan(new BufferedReader(new StringReader(log.toString())));
        ReplayReport report = new ReplayReport(3);
        try (Simulator stricter = simulator("registry.example.com/shop/", false)) {
            List<dev.tollgate.simulator.Webhook> webhooks = new ArrayList<>(configurations().mutating());
            webhooks.addAll(configurations().validating());
            new Replayer(stricter, null, FUNCTION, new ReplayReader(FUNCTION, 100, Map.of()), report, registrations,
                    webhooks).replay("audit.log", new BufferedReader(new StringReader(log.toString())), () -> { });
        }
        assertEquals(1, report.changed(), ReplayOutput.text(run(), report));
        assertEquals(List.of("Pod shop/late (CREATE)"), report.functions().get("registry")
                .examples(Change.ALLOWED_TO_DENIED).stream().map(ReplayReport.Example::ref).toList());
        assertEquals(1, report.beforeRegistration().count());
        assertEquals("audit.log:1", report.beforeRegistration().firstSource());
        assertTrue(ReplayOutput.text(run(), report).contains("Before registration: 1"), ReplayOutput.text(run(),
                report));
        assertTrue(ReplayOutput.summary(report).startsWith("1 of 1 replayed requests changed; 1 before registration"),
                ReplayOutput.summary(report));
    }

    @Test
    void examplesAreCappedButEveryChangeIsCounted() throws Exception {
        List<Object> lines = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lines.add(allowedCreate("tools-" + i, "registry.example.com/tools/kit:" + i));
        }
        try (Simulator changed = simulator("registry.example.com/shop/", false)) {
            ReplayReport r = replay(changed, null, 2, lines);
            assertEquals(5, r.functions().get("registry").count(Change.ALLOWED_TO_DENIED));
            assertEquals(2, r.functions().get("registry").examples(Change.ALLOWED_TO_DENIED).size());
            assertTrue(ReplayOutput.text(run(), r).contains("allowed->denied (5, 2 shown)"));
        }
    }

    @Test
    void aServedBaselineComparesWarningsAndFullPatches() throws Exception {
        List<Object> lines = List.of(allowedCreate("web", "registry.example.com/shop/web:latest"),
                allowedCreate("api", "registry.example.com/shop/api:1"));
        try (Simulator baseline = simulator("registry.example.com/", false);
                Simulator candidate = simulator("registry.example.com/", true)) {
            ReplayReport r = replay(candidate, baseline, 3, lines);
            assertTrue(r.warningsCompared());
            assertEquals(List.of("Pod shop/web (CREATE)"), refs(r.functions().get("registry"),
                    Change.WARNINGS_ADDED));
            assertEquals("image registry.example.com/shop/web:latest uses the latest tag", r.functions()
                    .get("registry").examples(Change.WARNINGS_ADDED).get(0).after());
            assertEquals(0, r.functions().get("registry").count(Change.WARNINGS_LOST));
            assertEquals(1, r.changed());
            assertFalse(ReplayOutput.text(run(), r).contains("compared only against a served baseline"));
        }
    }

    @Test
    void aPatchThatDiffersFromTheRecordedOneIsAPatchChange() throws Exception {
        ObjectNode other = patchAnnotation(event("Request", "create", "web", pod("web", "registry.example.com/a:1"),
                null), 0, 0, "pull.tollgate.dev", "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{}}]");
        ObjectNode none = event("Request", "create", "api", pod("api", "registry.example.com/a:1"), null);
        try (Simulator same = simulator("registry.example.com/", false)) {
            ReplayReport r = replay(same, null, 3, List.of(other, none));
            ReplayReport.FunctionStats pull = r.functions().get("pull");
            assertEquals(List.of("Pod shop/web (CREATE)", "Pod shop/api (CREATE)"), refs(pull, Change.PATCH_CHANGED));
            assertEquals("no patch", pull.examples(Change.PATCH_CHANGED).get(1).before());
            assertEquals(PULL_PATCH, pull.examples(Change.PATCH_CHANGED).get(1).after());
        }
    }

    @Test
    void aDecisionLogLineIsComparedForItsFunctionOnly() throws Exception {
        ObjectNode d = AuditLines.JSON.createObjectNode().put("uid", "u1").put("function", "registry")
                .put("operation", "CREATE").put("kind", "Pod").put("namespace", "shop").put("name", "tools")
                .put("user", "alice").put("verdict", "allowed").put("status", 200).put("patchOps", 0);
        d.set("object", pod("tools", "registry.example.com/tools/kit:2"));
        ObjectNode pull = d.deepCopy().put("function", "pull").put("verdict", "patched").put("patchOps", 1);
        try (Simulator changed = simulator("registry.example.com/shop/", false)) {
            ReplayReport r = replay(changed, null, 3, List.of(d, pull));
            assertEquals(1, r.functions().get("registry").count(Change.ALLOWED_TO_DENIED));
            assertEquals("denied by registry", r.functions().get("registry").examples(Change.ALLOWED_TO_DENIED)
                    .get(0).after());
            // The pull line: the request is denied now, by registry; pull's own answer (patched) did not change.
            assertEquals(1, r.functions().get("pull").replayed());
            assertEquals(1, r.functions().get("pull").unchanged());
            assertEquals(2, r.replayed());
        }
    }

    @Test
    void aRequestNoWebhookMatchesIsNotReplayed() throws Exception {
        ObjectNode cm = AuditLines.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("name", "settings").put("namespace", "shop");
        ObjectNode e = event("Request", "create", "settings", cm, null);
        ((ObjectNode) e.get("objectRef")).put("resource", "configmaps");
        try (Simulator same = simulator("registry.example.com/", false)) {
            ReplayReport r = replay(same, null, 3, List.of(e));
            assertEquals(0, r.replayed());
            assertEquals(1, r.notReplayed().get(ReplayReport.NO_WEBHOOK).count());
            assertEquals("ConfigMap shop/settings (CREATE)", r.notReplayed().get(ReplayReport.NO_WEBHOOK)
                    .firstDetail());
        }
    }

    @Test
    void twoDenialsOfWhichTheLogReportsEitherAreNoChange() throws Exception {
        // The API server calls validating webhooks at once and reports whichever denial came first: a log may hold
        // either function's message for a request both deny.
        ObjectNode pod = pod("both", "evil.example.com/x:1");
        pod.with("metadata").putObject("labels").put("forbidden", "yes");
        ObjectNode byLabels = patchAnnotation(event("Request", "create", "both", pod,
                denied("labels.tollgate.dev", "label forbidden")), 0, 0, "pull.tollgate.dev", PULL_PATCH);
        ObjectNode byRegistry = patchAnnotation(event("Request", "create", "both", pod,
                denied("registry.tollgate.dev", "evil.example.com/x:1 is not under registry.example.com/")), 0, 0,
                "pull.tollgate.dev", PULL_PATCH);
        try (Simulator same = simulator("registry.example.com/", false)) {
            ReplayReport r = replay(same, null, 3, List.of(byLabels, byRegistry));
            assertEquals(0, r.changed(), ReplayOutput.text(run(), r));
        }
        // When the reported function no longer denies, its message changed though the request stays denied.
        try (Simulator loose = simulator("evil.example.com/", false)) {
            ReplayReport r = replay(loose, null, 3, List.of(byRegistry));
            assertEquals(List.of("Pod shop/both (CREATE)"), refs(r.functions().get("registry"),
                    Change.MESSAGE_CHANGED));
            assertEquals("not denied by registry; denied (403): admission webhook \"labels.tollgate.dev\" denied "
                    + "the request: label forbidden", r.functions().get("registry").examples(Change.MESSAGE_CHANGED)
                    .get(0).after());
            assertEquals(0, r.functions().get("labels").count(Change.MESSAGE_CHANGED));
        }
    }

    static List<String> refs(ReplayReport.FunctionStats s, Change c) {
        return s.examples(c).stream().map(ReplayReport.Example::ref).toList();
    }

    static ReplayOutput.Run run() {
        return new ReplayOutput.Run(List.of("audit.log"), "the test's webhooks", "recorded", 100, 0);
    }
}
