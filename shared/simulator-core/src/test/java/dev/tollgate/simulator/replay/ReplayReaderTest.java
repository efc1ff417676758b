package dev.tollgate.simulator.replay;

import static dev.tollgate.simulator.replay.AuditLines.denied;
import static dev.tollgate.simulator.replay.AuditLines.event;
import static dev.tollgate.simulator.replay.AuditLines.patchAnnotation;
import static dev.tollgate.simulator.replay.AuditLines.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.simulator.InputManifest;

class ReplayReaderTest {

    private final ReplayReader reader = new ReplayReader(w -> w.substring(0, w.indexOf('.')), 100, Map.of());

    private ReplayItem read(ObjectNode line) {
        return reader.read(line.toString(), "audit.log:1");
    }

    @Test
    void requestLevelCreateIsReplayedWithTheRecordedAnswerAndTheUser() {
        ObjectNode e = event("Request", "create", "web", pod("web", "registry.example.com/web:1"), null);
        e.put("requestURI", "/api/v1/namespaces/shop/pods?dryRun=All&fieldManager=kubectl");
        e.putObject("impersonatedUser").put("username", "bob").putArray("groups").add("ops");
        patchAnnotation(e, 0, 0, "pull.tollgate.dev", "[{\"op\":\"add\",\"path\":\"/x\",\"value\":1}]");
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class, read(e));
        assertEquals("Pod shop/web (CREATE)", r.ref());
        assertEquals(Operation.CREATE, r.settings().operation());
        assertEquals("bob", r.settings().username(), "admission sees the impersonated user");
        assertEquals(List.of("ops"), r.settings().groups());
        assertTrue(r.settings().dryRun());
        assertTrue(r.recorded().allowed());
        assertEquals(Set.of("pull"), r.recorded().mutated());
        assertEquals("[{\"op\":\"add\",\"path\":\"/x\",\"value\":1}]", r.recorded().patches().get("pull").toString());
        assertNull(r.recorded().warnings(), "audit logs record no warnings");
        assertNull(r.function());
    }

    @Test
    void aWebhookDenialNamesItsFunction() {
        ObjectNode e = event("Request", "create", "bad", pod("bad", "evil.example.com/x"),
                denied("registry.tollgate.dev", "untrusted image"));
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class, read(e));
        assertFalse(r.recorded().allowed());
        assertEquals(403, r.recorded().code());
        assertEquals(List.of("registry"), r.recorded().deniers());
        assertTrue(r.recorded().message().endsWith("untrusted image"));
    }

    @Test
    void aDenialWhoseStatusHasNoMessageIsReadFromTheResponseObject() {
        // v1.20 logs responseStatus without its message; the responseObject (RequestResponse) is the Status.
        ObjectNode status = denied("registry.tollgate.dev", "untrusted image");
        ObjectNode e = event("RequestResponse", "create", "bad", pod("bad", "evil.example.com/x"),
                (ObjectNode) status.deepCopy().without("message"));
        e.set("responseObject", status.deepCopy().put("kind", "Status").put("apiVersion", "v1"));
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class, read(e));
        assertEquals(List.of("registry"), r.recorded().deniers());
        e.remove("responseObject");
        assertEquals(ReplayReader.OUTSIDE_ADMISSION, assertInstanceOf(ReplayItem.NotReplayed.class, read(e))
                .reason(), "with no message anywhere, who denied is not known");
    }

    @Test
    void metadataLevelIsNotReplayedButItsMutationIsKnownAsMutatedOnly() {
        ObjectNode e = patchAnnotation(event("Metadata", "create", "web", pod("web", "x"), null), 0, 0,
                "pull.tollgate.dev", "[]");
        ReplayItem.NotReplayed n = assertInstanceOf(ReplayItem.NotReplayed.class, read(e));
        assertEquals(ReplayReader.NO_OBJECT, n.reason());
        assertEquals("audit.log:1", n.source());
        assertTrue(n.detail().contains("level Metadata"), n.detail());
    }

    @Test
    void otherStagesReadsAndNonResourceRequestsAreIgnored() {
        ObjectNode received = event("Request", "create", "web", pod("web", "x"), null).put("stage", "RequestReceived");
        assertInstanceOf(ReplayItem.Ignored.class, read(received));
        assertInstanceOf(ReplayItem.Ignored.class, read(event("Request", "get", "web", null, null)));
        ObjectNode nonResource = event("Metadata", "create", "x", null, null);
        nonResource.remove("objectRef");
        assertInstanceOf(ReplayItem.Ignored.class, read(nonResource));
    }

    @Test
    void patchesSubresourcesAndFailuresOutsideAdmissionAreNotReplayedWithTheirReason() {
        assertEquals(ReplayReader.PATCH, assertInstanceOf(ReplayItem.NotReplayed.class,
                read(event("Request", "patch", "web", pod("web", "x"), null))).reason());
        ObjectNode status = event("Request", "update", "web", pod("web", "x"), null);
        ((ObjectNode) status.get("objectRef")).put("subresource", "status");
        ReplayItem.NotReplayed sub = assertInstanceOf(ReplayItem.NotReplayed.class, read(status));
        assertEquals(ReplayReader.SUBRESOURCE, sub.reason());
        assertTrue(sub.detail().contains("pods/status"), sub.detail());
        ObjectNode conflict = JSONStatus.of(409, "AlreadyExists", "pods \"web\" already exists");
        ReplayItem.NotReplayed exists = assertInstanceOf(ReplayItem.NotReplayed.class,
                read(event("Request", "create", "web", pod("web", "x"), conflict)));
        assertEquals(ReplayReader.OUTSIDE_ADMISSION, exists.reason());
        assertTrue(exists.detail().contains("409 AlreadyExists"), exists.detail());
    }

    @Test
    void updateAndDeleteTakeTheStoredObjectFromAnEarlierRequestResponseEvent() {
        // Before anything is stored: the UPDATE has no old object.
        ReplayItem.NotReplayed early = assertInstanceOf(ReplayItem.NotReplayed.class,
                read(event("Request", "update", "web", pod("web", "b"), null)));
        assertEquals(ReplayReader.NO_STORED, early.reason());
        read(event("RequestResponse", "create", "web", pod("web", "a"), null));
        ReplayItem.Request update = assertInstanceOf(ReplayItem.Request.class,
                read(event("RequestResponse", "update", "web", pod("web", "b"), null)));
        assertEquals(Operation.UPDATE, update.settings().operation());
        ObjectNode old = update.settings().oldObject("Pod", "shop", "web").orElseThrow();
        assertEquals("a", old.path("spec").path("containers").path(0).path("image").asText());
        assertEquals("uid-web", old.path("metadata").path("uid").asText(), "the stored object, as the server returned it");
        // The update's response is what a DELETE after it removes.
        ReplayItem.Request delete = assertInstanceOf(ReplayItem.Request.class,
                read(event("Request", "delete", "web", null, null)));
        assertEquals(Operation.DELETE, delete.settings().operation());
        assertEquals("b", delete.manifest().object().path("spec").path("containers").path(0).path("image").asText());
        assertEquals(0, reader.stored().size(), "a deleted object is no longer stored");
        assertEquals(ReplayReader.NO_STORED, assertInstanceOf(ReplayItem.NotReplayed.class,
                read(event("Request", "delete", "web", null, null))).reason());
    }

    @Test
    void namespacesSeenInTheLogGiveTheirLabels() {
        ObjectNode ns = AuditLines.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
        ns.putObject("metadata").put("name", "shop").putObject("labels").put("team", "storefront");
        ObjectNode e = event("RequestResponse", "create", "shop", ns, null);
        ((ObjectNode) e.get("objectRef")).put("resource", "namespaces").remove("namespace");
        read(e);
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class,
                read(event("Request", "create", "web", pod("web", "x"), null)));
        assertEquals("storefront", r.settings().namespaceObjects().get("shop").path("metadata").path("labels")
                .path("team").asText());
    }

    @Test
    void givenNamespacesAreUsedWhenTheLogShowsNone() {
        ObjectNode ns = AuditLines.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
        ns.putObject("metadata").put("name", "shop").putObject("labels").put("mesh", "enabled");
        ReplayReader withGiven = new ReplayReader(w -> w, 10, Map.of("shop", new InputManifest("ns.yaml", ns)));
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class, withGiven.read(
                event("Request", "create", "web", pod("web", "x"), null).toString(), "a:1"));
        assertEquals("enabled", r.settings().namespaceObjects().get("shop").path("metadata").path("labels")
                .path("mesh").asText());
    }

    @Test
    void givenNamespacesComeFirstThenTheLogsThenTheClustersAndTheRequestSaysWhich() {
        // Issue 45: --namespaces, else the Namespace as the log last showed it written, else --kubeconfig's.
        ObjectNode given = AuditLines.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
        given.putObject("metadata").put("name", "shop").putObject("labels").put("from", "given");
        ObjectNode cluster = given.deepCopy();
        cluster.with("metadata").with("labels").put("from", "cluster");
        ObjectNode logged = given.deepCopy();
        logged.with("metadata").with("labels").put("from", "log");
        ObjectNode created = event("RequestResponse", "create", "shop", logged, null);
        ((ObjectNode) created.get("objectRef")).put("resource", "namespaces").remove("namespace");
        ReplayReader both = new ReplayReader(w -> w, 10, Map.of("shop", new InputManifest("ns.yaml", given)),
                Map.of("shop", new InputManifest("cluster", cluster)));
        ReplayReader logAndCluster = new ReplayReader(w -> w, 10, Map.of(),
                Map.of("shop", new InputManifest("cluster", cluster)));
        ReplayReader clusterOnly = new ReplayReader(w -> w, 10, Map.of(),
                Map.of("shop", new InputManifest("cluster", cluster)));
        both.read(created.toString(), "a:1");
        logAndCluster.read(created.toString(), "a:1");
        String pod = event("Request", "create", "web", pod("web", "x"), null).toString();
        ReplayItem.Request fromGiven = assertInstanceOf(ReplayItem.Request.class, both.read(pod, "a:2"));
        ReplayItem.Request fromLog = assertInstanceOf(ReplayItem.Request.class, logAndCluster.read(pod, "a:2"));
        ReplayItem.Request fromCluster = assertInstanceOf(ReplayItem.Request.class, clusterOnly.read(pod, "a:2"));
        ReplayItem.Request assumed = assertInstanceOf(ReplayItem.Request.class, reader.read(pod, "a:2"));
        assertEquals(List.of("given", ReplayReader.FROM_GIVEN, "log", ReplayReader.FROM_LOG, "cluster",
                ReplayReader.FROM_CLUSTER, ReplayReader.ASSUMED), List.of(
                        label(fromGiven), fromGiven.namespacesFrom(), label(fromLog), fromLog.namespacesFrom(),
                        label(fromCluster), fromCluster.namespacesFrom(), assumed.namespacesFrom()));
    }

    private static String label(ReplayItem.Request r) {
        return r.settings().namespaceObjects().get("shop").path("metadata").path("labels").path("from").asText();
    }

    @Test
    void eventsReceivedBeforeSinceAreNotReplayedButStillFeedTheCaches() {
        ReplayReader cut = new ReplayReader(w -> w, 10, Map.of()).since(java.time.Instant.parse(
                "2026-01-01T00:00:02Z"));
        ObjectNode early = event("RequestResponse", "create", "web", pod("web", "x"), null)
                .put("requestReceivedTimestamp", "2026-01-01T00:00:01.000000Z");
        ReplayItem.NotReplayed skipped = assertInstanceOf(ReplayItem.NotReplayed.class, cut.read(early.toString(),
                "a:1"));
        assertEquals(ReplayReader.BEFORE_SINCE, skipped.reason());
        ObjectNode update = event("Request", "update", "web", pod("web", "y"), null)
                .put("requestReceivedTimestamp", "2026-01-01T00:00:03.000000Z");
        ReplayItem.Request r = assertInstanceOf(ReplayItem.Request.class, cut.read(update.toString(), "a:2"));
        assertEquals("2026-01-01T00:00:03Z", r.time().toString());
    }

    @Test
    void decisionLogLinesBareOrInsideALogRecordsMessage() {
        ObjectNode d = AuditLines.JSON.createObjectNode().put("uid", "u1").put("function", "registry")
                .put("cluster", "east").put("operation", "CREATE").put("kind", "Pod").put("namespace", "shop")
                .put("name", "web").put("user", "alice").put("verdict", "denied").put("decision", "denied")
                .put("enforcement", "enforce").put("status", 200).put("code", 403).put("patchOps", 0)
                .put("latencyMs", 1.5);
        d.set("object", pod("web", "evil.example.com/x"));
        d.putNull("oldObject");
        ReplayItem.Request bare = assertInstanceOf(ReplayItem.Request.class, reader.read(d.toString(), "d.log:3"));
        assertEquals("registry", bare.function());
        assertFalse(bare.recorded().allowed());
        assertEquals(List.of("registry"), bare.recorded().deniers());
        assertEquals("alice", bare.settings().username());
        ObjectNode record = AuditLines.JSON.createObjectNode().put("timestamp", "2026-01-01T00:00:00Z")
                .put("loggerName", "tollgate.decision").put("message", d.toString());
        ReplayItem.Request wrapped = assertInstanceOf(ReplayItem.Request.class,
                reader.read(record.toString(), "d.log:4"));
        assertEquals(bare.ref(), wrapped.ref());

        ObjectNode noObject = d.deepCopy();
        noObject.remove("object");
        noObject.remove("oldObject");
        assertEquals(ReplayReader.DECISION_NO_OBJECT, assertInstanceOf(ReplayItem.NotReplayed.class,
                reader.read(noObject.toString(), "d.log:5")).reason());
        ObjectNode error = d.deepCopy().put("verdict", "error");
        assertEquals(ReplayReader.DECISION_FAILED, assertInstanceOf(ReplayItem.NotReplayed.class,
                reader.read(error.toString(), "d.log:6")).reason());
        ObjectNode conversion = d.deepCopy().put("operation", "CONVERT");
        assertInstanceOf(ReplayItem.Ignored.class, reader.read(conversion.toString(), "d.log:7"));
    }

    @Test
    void junkLinesAreUnreadableWithTheirPlace() {
        ReplayItem.Unreadable text = assertInstanceOf(ReplayItem.Unreadable.class,
                reader.read("I0101 12:00:00 started", "x.log:9"));
        assertEquals("x.log:9", text.source());
        assertEquals("not JSON", text.why());
        assertInstanceOf(ReplayItem.Unreadable.class, reader.read("{\"kind\":\"Pod\"}", "x.log:10"));
        assertInstanceOf(ReplayItem.Unreadable.class, reader.read("[1,2]", "x.log:11"));
        assertInstanceOf(ReplayItem.Unreadable.class, reader.read("{\"message\":\"{not json\"}", "x.log:12"));
        assertInstanceOf(ReplayItem.Ignored.class, reader.read("   ", "x.log:13"));
    }

    @Test
    void aGeneratedNameIsShownAsTheServerGaveIt() {
        ObjectNode pod = pod("", "x");
        ((ObjectNode) pod.get("metadata")).remove("name");
        ((ObjectNode) pod.get("metadata")).put("generateName", "job-");
        ObjectNode e = event("RequestResponse", "create", "", pod, null);
        ((ObjectNode) e.get("responseObject").get("metadata")).put("name", "job-x7k2p");
        assertEquals("Pod shop/job-x7k2p (CREATE)", assertInstanceOf(ReplayItem.Request.class, read(e)).ref());
        e.remove("responseObject");
        assertEquals("Pod shop/job-* (CREATE)", assertInstanceOf(ReplayItem.Request.class, read(e)).ref());
    }

    @Test
    void dryRunComesFromTheQuery() {
        assertTrue(ReplayReader.dryRun("/api/v1/pods?dryRun=All"));
        assertFalse(ReplayReader.dryRun("/api/v1/pods?fieldManager=x"));
        assertFalse(ReplayReader.dryRun("/api/v1/pods"));
    }

    /** A metav1.Status of a failed request. */
    static final class JSONStatus {
        static ObjectNode of(int code, String reason, String message) {
            ObjectNode s = AuditLines.JSON.createObjectNode();
            s.putObject("metadata");
            return s.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        }
    }
}
