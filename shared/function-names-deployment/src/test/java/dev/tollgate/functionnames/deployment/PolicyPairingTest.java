package dev.tollgate.functionnames.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

class PolicyPairingTest {

    private static List<WebhookRegistration> yaml(String text) {
        return Registrations.read("", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "test");
    }

    private static final List<WebhookRegistration> REQUIRE_LABELS = yaml("""
            name: require-labels.tollgate.dev
            type: validating
            path: /require-labels
            """);

    private static final List<WebhookRegistration> POD_SECURITY = yaml("""
            name: baseline.enforce.pod-security.tollgate.dev
            type: validating
            path: /pod-security/enforce/baseline/latest
            ---
            name: restricted.enforce.pod-security.tollgate.dev
            type: validating
            path: /pod-security/enforce/restricted/latest
            """);

    private static final List<WebhookRegistration> CONVERSION = yaml("""
            type: conversion
            path: /crd-conversion
            crd: databases.shop.tollgate.dev
            versions: [v1, v2]
            """);

    private static PolicyPairing.Archive archive(String at, List<WebhookRegistration> entries, Set<String> admission,
            Set<String> conversion) {
        return new PolicyPairing.Archive(at, entries, admission, conversion);
    }

    @Test
    void eachArchivesPolicyTakesTheFunctionItsWebhookYamlNames() {
        Map<String, String> names = PolicyPairing.pair(List.of(
                archive("require-labels.jar", REQUIRE_LABELS, Set.of("a.RequireLabels"), Set.of()),
                archive("pod-security.jar", POD_SECURITY, Set.of("b.PodSecurity"), Set.of()),
                archive("crd-conversion.jar", CONVERSION, Set.of(), Set.of("c.DatabaseConversion")),
                archive("admission.jar", List.of(), Set.of(), Set.of())));
        assertEquals(Map.of("a.RequireLabels", "require-labels", "b.PodSecurity", "pod-security",
                "c.DatabaseConversion", "crd-conversion"), names);
    }

    @Test
    void anArchiveMayServeOneAdmissionAndOneConversionFunction() {
        List<WebhookRegistration> both = yaml("""
                name: probe.tollgate.dev
                type: validating
                path: /probe
                ---
                type: conversion
                path: /probe-conversion
                crd: probes.probe.tollgate.dev
                versions: [v1, v2]
                """);
        assertEquals(Map.of("t.ProbePolicy", "probe", "t.ProbeConversion", "probe-conversion"), PolicyPairing.pair(
                List.of(archive("test-classes", both, Set.of("t.ProbePolicy"), Set.of("t.ProbeConversion")))));
    }

    @Test
    void aPolicyWithoutWebhookYamlIsABuildError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PolicyPairing.pair(List.of(
                archive("load-test.jar", List.of(), Set.of("l.SlowPolicy"), Set.of()))));
        assertEquals("policies and webhook.yaml do not pair: load-test.jar: admission policy l.SlowPolicy has no"
                + " admission entry in a META-INF/tollgate/webhook.yaml beside it (a function module packages its"
                + " webhook.yaml)", e.getMessage());
    }

    @Test
    void aWebhookYamlWithoutItsPolicyIsABuildError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PolicyPairing.pair(List.of(
                archive("crd-conversion.jar", CONVERSION, Set.of("c.Stray"), Set.of()))));
        assertTrue(e.getMessage().contains("crd-conversion.jar: admission policy c.Stray has no admission entry"),
                e.getMessage());
        assertTrue(e.getMessage().contains("crd-conversion.jar: webhook.yaml names conversion function"
                + " crd-conversion but no conversion policy bean is beside it"), e.getMessage());
    }

    @Test
    void twoPoliciesOfAKindInOneArchiveAreABuildError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PolicyPairing.pair(List.of(
                archive("mixed.jar", REQUIRE_LABELS, Set.of("a.One", "a.Two"), Set.of()))));
        assertTrue(e.getMessage().endsWith("mixed.jar: webhook.yaml names admission functions [require-labels] and"
                + " the archive holds admission policies [a.One, a.Two]: one archive serves one admission function"
                + " with one policy"), e.getMessage());
    }

    @Test
    void theSameFunctionDeclaredTwiceIsABuildError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PolicyPairing.pair(List.of(
                archive("one.jar", REQUIRE_LABELS, Set.of("a.One"), Set.of()),
                archive("two.jar", REQUIRE_LABELS, Set.of("b.Two"), Set.of()))));
        assertTrue(e.getMessage().contains("function 'require-labels' is declared by two webhook.yaml files: in"
                + " one.jar and in two.jar"), e.getMessage());
    }

    @Test
    void aFunctionNameMustBeADnsLabel() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PolicyPairing.pair(List.of(
                archive("bad.jar", yaml("name: bad.tollgate.dev\ntype: validating\npath: /Bad_Name\n"),
                        Set.of("a.Bad"), Set.of()))));
        assertTrue(e.getMessage().contains("bad.jar: webhook.yaml entry bad.tollgate.dev has path '/Bad_Name': its"
                + " first segment, the function name, must be a DNS label"), e.getMessage());
    }
}
