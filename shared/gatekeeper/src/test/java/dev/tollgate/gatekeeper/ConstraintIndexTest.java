package dev.tollgate.gatekeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.gatekeeper.gator.GatorRunner;

/**
 * The policy host finds a request's Constraints through its index (by the kinds of {@code match.kinds}): on a grid of
 * objects and old objects of several kinds, the Constraints reviewed are exactly those whose match, run on every
 * Constraint, selects the request.
 */
class ConstraintIndexTest {

    private static final List<String> MATCHES = List.of(
            "{}",
            "{kinds: []}",
            "{kinds: [{apiGroups: [''], kinds: [Pod]}]}",
            "{kinds: [{apiGroups: [apps], kinds: [Deployment, StatefulSet]}]}",
            "{kinds: [{apiGroups: ['*'], kinds: [Pod]}]}",
            "{kinds: [{apiGroups: [apps], kinds: ['*']}]}",
            "{kinds: [{apiGroups: ['*'], kinds: ['*']}]}",
            "{kinds: [{kinds: [Ingress]}]}",
            "{kinds: [{apiGroups: [networking.k8s.io]}]}",
            "{kinds: [{apiGroups: [''], kinds: [Namespace]}, {apiGroups: [stable.example.com], kinds: [CronTab]}]}",
            "{kinds: [{apiGroups: [''], kinds: [Pod]}], namespaces: [shop]}",
            "{kinds: [{apiGroups: [''], kinds: [Service]}]}");

    private static final List<String> OBJECTS = List.of(
            "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop}}",
            "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: dev}}",
            "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d, namespace: shop}}",
            "{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: s, namespace: shop}}",
            "{apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: i, namespace: shop}}",
            "{apiVersion: v1, kind: Namespace, metadata: {name: shop}}",
            "{apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: c, namespace: shop}}",
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: m, namespace: shop}}");

    @Test
    void theIndexedReviewEqualsTheMatchOfEveryConstraint() {
        // GatekeeperPoliciesTest's template: on these objects (no spec.containers) every review is an error, which
        // under failurePolicy Fail is one violation per Constraint reviewed.
        StringBuilder constraints = new StringBuilder();
        for (int i = 0; i < MATCHES.size(); i++) {
            constraints.append(GatekeeperPoliciesTest.constraint("c" + (i < 10 ? "0" : "") + i, "match: "
                    + MATCHES.get(i)));
        }
        GatekeeperPolicies policies = GatekeeperPoliciesTest.load(constraints.toString());
        List<Constraint> parsed = ConfigFiles.parse(constraints.toString(), "test.yaml").stream()
                .map(d -> Constraint.parse(d, new ArrayList<>())).toList();
        Namespaces namespaces = Namespaces.from(List.of(), Namespaces.Unknown.EMPTY);
        int requests = 0;
        int reviewed = 0;
        for (String object : OBJECTS) {
            for (String old : OBJECTS) {
                for (AdmissionRequest request : requests(object, old)) {
                    List<String> scanned = parsed.stream().filter(c -> c.match().matches(request, namespaces))
                            .map(Constraint::name).toList();
                    List<String> found = policies.review(request).stream().map(v -> v.constraint().name()).toList();
                    assertEquals(scanned, found, () -> "object " + object + ", old object " + old);
                    requests++;
                    reviewed += found.size();
                }
            }
        }
        assertEquals(OBJECTS.size() * OBJECTS.size() * 2, requests);
        // Not every Constraint for every request: the grid has selecting and non-selecting pairs.
        assertTrue(reviewed > 0 && reviewed < requests * MATCHES.size(), "reviewed " + reviewed);
    }

    /** A CREATE of the object, and an UPDATE from the old object to it (kinds may differ: matchAny reads both). */
    private static List<AdmissionRequest> requests(String object, String old) {
        ObjectNode create = ConfigFiles.parse(object, "object").get(0).object();
        ObjectNode review = ConfigFiles.parse("""
                apiVersion: admission.k8s.io/v1
                kind: AdmissionReview
                request: {operation: UPDATE, object: %s, oldObject: %s}
                """.formatted(object, old), "review").get(0).object();
        return List.of(GatorRunner.requestFor(create), GatorRunner.requestFor(review));
    }
}
