package dev.tollgate.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * Table tests of {@link RegistrationValidator}: each row changes one thing in a valid entry (a JSON merge patch:
 * {@code null} removes a field) and names the problem the API server would report, or none for the controls.
 */
class RegistrationValidatorTableTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String VALID_ENTRY = """
            name: demo.tollgate.dev
            type: validating
            path: /demo
            rules:
              - operations: ["CREATE", "UPDATE"]
                apiGroups: [""]
                apiVersions: ["v1"]
                resources: ["pods"]
                scope: Namespaced
            failurePolicy: Fail
            sideEffects: None
            timeoutSeconds: 10
            admissionReviewVersions: ["v1", "v1beta1"]
            """;

    static Stream<Arguments> rejectedEntries() {
        return Stream.of(
                row("name missing", "{\"name\": null}", ".name: required"),
                row("name not fully qualified", "{\"name\": \"demo\"}", "must be a fully qualified name"),
                row("name with two segments", "{\"name\": \"demo.dev\"}", "must be a fully qualified name"),
                row("name in upper case", "{\"name\": \"Demo.Tollgate.dev\"}", "must be a fully qualified name"),
                row("timeoutSeconds 0", "{\"timeoutSeconds\": 0}", "timeoutSeconds: must be an integer between 1 and 30"),
                row("timeoutSeconds 31", "{\"timeoutSeconds\": 31}", "timeoutSeconds: must be an integer between 1 and 30"),
                row("timeoutSeconds negative", "{\"timeoutSeconds\": -5}", "timeoutSeconds: must be an integer"),
                row("timeoutSeconds fractional", "{\"timeoutSeconds\": 2.5}", "timeoutSeconds: must be an integer"),
                row("timeoutSeconds text", "{\"timeoutSeconds\": \"ten\"}", "timeoutSeconds: must be an integer"),
                row("sideEffects missing", "{\"sideEffects\": null}", "sideEffects: required"),
                row("sideEffects Some", "{\"sideEffects\": \"Some\"}", "sideEffects: 'Some' is not one of"),
                row("sideEffects Unknown", "{\"sideEffects\": \"Unknown\"}", "sideEffects: 'Unknown' is not one of"),
                row("review versions missing", "{\"admissionReviewVersions\": null}", "admissionReviewVersions: required"),
                row("review versions empty", "{\"admissionReviewVersions\": []}", "admissionReviewVersions: required"),
                row("review version unknown", "{\"admissionReviewVersions\": [\"v2\"]}", "'v2' is not a known version"),
                row("review version repeated", "{\"admissionReviewVersions\": [\"v1\", \"v1\"]}", "duplicate version 'v1'"),
                row("reinvocationPolicy on validating", "{\"reinvocationPolicy\": \"IfNeeded\"}",
                        "reinvocationPolicy is for mutating webhooks only"),
                row("reinvocationPolicy value", "{\"type\": \"mutating\", \"reinvocationPolicy\": \"Always\"}",
                        "reinvocationPolicy: 'Always' is not one of"),
                row("failurePolicy value", "{\"failurePolicy\": \"Never\"}", "failurePolicy: 'Never' is not one of"),
                row("matchPolicy value", "{\"matchPolicy\": \"Fuzzy\"}", "matchPolicy: 'Fuzzy' is not one of"),
                row("65 matchConditions", "{\"matchConditions\": " + conditions(65) + "}", "at most 64 conditions"),
                row("duplicate matchCondition", "{\"matchConditions\": [{\"name\": \"a\", \"expression\": \"true\"},"
                        + " {\"name\": \"a\", \"expression\": \"false\"}]}", "duplicate name 'a'"),
                row("matchCondition without expression", "{\"matchConditions\": [{\"name\": \"a\"}]}",
                        "matchConditions[0].expression: required"),
                row("matchCondition bad name", "{\"matchConditions\": [{\"name\": \"not ok\", \"expression\": \"true\"}]}",
                        "must be a qualified name"),
                row("selector operator", selector("{\"key\": \"a\", \"operator\": \"Has\"}"), "is not a valid operator"),
                row("selector In without values", selector("{\"key\": \"a\", \"operator\": \"In\"}"),
                        "must be specified when operator is In"),
                row("selector Exists with values", selector("{\"key\": \"a\", \"operator\": \"Exists\", \"values\": [\"x\"]}"),
                        "may not be specified when operator is Exists"),
                row("selector bad key", selector("{\"key\": \"-bad-\", \"operator\": \"Exists\"}"), "is not a valid label key"),
                row("selector bad label value", "{\"objectSelector\": {\"matchLabels\": {\"team\": \"no spaces\"}}}",
                        "is not a valid label value"),
                row("selector unknown field", "{\"objectSelector\": {\"matchFields\": {}}}", "unknown field 'matchFields'"),
                row("operation wildcard with others", rule("operations", "[\"*\", \"CREATE\"]"),
                        "if '*' is present, must not specify other operations"),
                row("operation unknown", rule("operations", "[\"PATCH\"]"), "'PATCH' is not one of"),
                row("apiGroups wildcard with others", rule("apiGroups", "[\"*\", \"apps\"]"),
                        "must not specify other API groups"),
                row("apiVersions wildcard with others", rule("apiVersions", "[\"*\", \"v1\"]"),
                        "must not specify other API versions"),
                row("apiVersions empty entry", rule("apiVersions", "[\"\"]"), "must not contain an empty version"),
                row("resources */* with others", rule("resources", "[\"*/*\", \"pods\"]"),
                        "if '*/*' is present, must not specify other resources"),
                row("resources pods/* and pods/status", rule("resources", "[\"pods/*\", \"pods/status\"]"),
                        "if 'pods/*' is present, must not specify pods/status"),
                row("resources */status and pods/status", rule("resources", "[\"*/status\", \"pods/status\"]"),
                        "if '*/status' is present, must not specify pods/status"),
                row("resources * and pods", rule("resources", "[\"*\", \"pods\"]"),
                        "if '*' is present, must not specify other resources without subresources"),
                row("resources empty", rule("resources", "[]"), "resources: required"),
                row("resources empty entry", rule("resources", "[\"\"]"), "must not contain an empty resource"),
                row("scope value", rule("scope", "\"Global\""), "scope: must be Cluster, Namespaced or *"),
                row("type value", "{\"type\": \"readonly\"}", ".type: must be validating, mutating or conversion"),
                row("path of another function", "{\"path\": \"/other\"}", ".path: must be /demo or below it"),
                row("path prefix only", "{\"path\": \"/demo-two\"}", ".path: must be /demo or below it"),
                row("path with query", "{\"path\": \"/demo/x?y=1\"}", "without query"),
                row("path with fragment", "{\"path\": \"/demo/x#y\"}", "without query, fragment"),
                row("path with trailing slash", "{\"path\": \"/demo/\"}", "trailing '/'"),
                row("clientConfig declared", "{\"clientConfig\": {\"url\": \"https://x.example\"}}", "must not be declared"),
                row("unknown field", "{\"timeout\": 10}", ".timeout: unknown field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedEntries")
    void rejects(String why, String mergePatch, String expected) {
        List<String> errors = RegistrationValidator.validateDeclared(entry(mergePatch));
        assertTrue(errors.stream().anyMatch(e -> e.contains(expected)),
                why + ": expected a problem containing \"" + expected + "\", got " + errors);
    }

    static Stream<Arguments> acceptedEntries() {
        return Stream.of(
                Arguments.of("the base entry", "{}"),
                Arguments.of("mutating with reinvocation", "{\"type\": \"mutating\", \"reinvocationPolicy\": \"IfNeeded\"}"),
                Arguments.of("timeoutSeconds 1", "{\"timeoutSeconds\": 1}"),
                Arguments.of("timeoutSeconds 30", "{\"timeoutSeconds\": 30}"),
                Arguments.of("timeoutSeconds absent (defaults to 10)", "{\"timeoutSeconds\": null}"),
                Arguments.of("64 matchConditions", "{\"matchConditions\": " + conditions(64) + "}"),
                Arguments.of("sub-path", "{\"path\": \"/demo/enforce/baseline\"}"),
                Arguments.of("NoneOnDryRun", "{\"sideEffects\": \"NoneOnDryRun\"}"),
                Arguments.of("all resources", rule("resources", "[\"*/*\"]")),
                Arguments.of("* with */status", rule("resources", "[\"*\", \"*/status\"]")),
                Arguments.of("pods and pods/status", rule("resources", "[\"pods\", \"pods/status\"]")),
                Arguments.of("Exists selector", selector("{\"key\": \"tollgate.dev/skip\", \"operator\": \"DoesNotExist\"}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedEntries")
    void accepts(String why, String mergePatch) {
        assertEquals(List.of(), RegistrationValidator.validateDeclared(entry(mergePatch)), why);
    }

    static Stream<Arguments> rejectedConfigurations() {
        return Stream.of(
                row("duplicate webhook names", "{\"webhooks\": [" + webhook("{}") + ", " + webhook("{}") + "]}",
                        "duplicate webhook name 'demo.tollgate.dev'"),
                row("http URL", "{\"webhooks\": [" + webhook(url("http://fn.example/demo")) + "]}",
                        "must use the https scheme"),
                row("URL with user info", "{\"webhooks\": [" + webhook(url("https://me:pw@fn.example/demo")) + "]}",
                        "must not contain user info"),
                row("URL with query", "{\"webhooks\": [" + webhook(url("https://fn.example/demo?a=b")) + "]}",
                        "must not contain a query"),
                row("URL with fragment", "{\"webhooks\": [" + webhook(url("https://fn.example/demo#x")) + "]}",
                        "must not contain a fragment"),
                row("URL without host", "{\"webhooks\": [" + webhook(url("https:///demo")) + "]}", "has no host"),
                row("no clientConfig", "{\"webhooks\": [" + webhook("{\"clientConfig\": null}") + "]}",
                        "clientConfig: required"),
                row("url and service", "{\"webhooks\": [" + webhook("{\"clientConfig\": {\"url\": \"https://a.example\","
                        + " \"service\": {\"name\": \"s\", \"namespace\": \"n\"}}}") + "]}", "exactly one of url or service"),
                row("caBundle not base64", "{\"webhooks\": [" + webhook("{\"clientConfig\": {\"url\": "
                        + "\"https://a.example\", \"caBundle\": \"not base64!\"}}") + "]}", "caBundle: must be base64"),
                row("wrong apiVersion", "{\"apiVersion\": \"admissionregistration.k8s.io/v1beta1\"}",
                        "apiVersion: must be admissionregistration.k8s.io/v1"),
                row("wrong kind", "{\"kind\": \"WebhookConfiguration\"}", "kind: must be MutatingWebhookConfiguration"),
                row("bad object name", "{\"metadata\": {\"name\": \"Tollgate_Hooks\"}}", "metadata.name"),
                row("reinvocationPolicy in a validating configuration", "{\"webhooks\": ["
                        + webhook("{\"reinvocationPolicy\": \"Never\"}") + "]}", "mutating webhooks only"));
    }

    private static final String VALID_CONVERSION = """
            type: conversion
            path: /demo
            crd: widgets.shop.tollgate.dev
            versions: [v1alpha1, v1beta1, v1]
            conversionReviewVersions: [v1, v1beta1]
            """;

    static Stream<Arguments> rejectedConversions() {
        return Stream.of(
                row("crd missing", "{\"crd\": null}", "demo/webhook.yaml[?].crd: required"),
                row("crd without group", "{\"crd\": \"widgets\"}", "[widgets].crd: 'widgets' must be a CustomResourceDefinition name"),
                row("crd group without dot", "{\"crd\": \"widgets.shop\"}", ".crd: 'widgets.shop' must be a"),
                row("crd upper case", "{\"crd\": \"Widgets.shop.tollgate.dev\"}", ".crd: 'Widgets.shop.tollgate.dev' must be"),
                row("versions missing", "{\"versions\": null}", ".versions: required"),
                row("one version", "{\"versions\": [\"v1\"]}", ".versions: required, the CRD's versions (at least two"),
                row("version not a label", "{\"versions\": [\"v1\", \"V2\"]}", ".versions: 'V2' is not a version name"),
                row("version starting with a digit", "{\"versions\": [\"v1\", \"2\"]}", ".versions: '2' is not a version name"),
                row("duplicate version", "{\"versions\": [\"v1\", \"v1\"]}", ".versions: duplicate version 'v1'"),
                row("review versions missing", "{\"conversionReviewVersions\": null}", ".conversionReviewVersions: required"),
                row("review versions empty", "{\"conversionReviewVersions\": []}", ".conversionReviewVersions: required"),
                row("review version unknown", "{\"conversionReviewVersions\": [\"v1\", \"v2\"]}", "'v2' is not a known version"),
                row("review versions none known", "{\"conversionReviewVersions\": [\"v2\"]}", "must include at least one of v1, v1beta1"),
                row("review version twice", "{\"conversionReviewVersions\": [\"v1\", \"v1\"]}", "duplicate version 'v1'"),
                row("admission field", "{\"rules\": []}", ".rules: unknown field (a conversion entry has type, path, crd, versions, conversionReviewVersions)"),
                row("clientConfig declared", "{\"clientConfig\": {\"url\": \"https://x.example\"}}", ".clientConfig: must not be declared"),
                row("path of another function", "{\"path\": \"/other\"}", "[widgets.shop.tollgate.dev].path: must be /demo or below it"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedConversions")
    void rejectsConversion(String why, String mergePatch, String expected) {
        List<String> errors = RegistrationValidator.validateDeclared(conversion(mergePatch));
        assertTrue(errors.stream().anyMatch(e -> e.contains(expected)),
                why + ": expected a problem containing \"" + expected + "\", got " + errors);
    }

    @org.junit.jupiter.api.Test
    void acceptsAConversionEntryAndExposesItsFields() {
        WebhookRegistration r = conversion("{}");
        assertEquals(List.of(), RegistrationValidator.validateDeclared(r));
        assertEquals(List.of(), RegistrationValidator.validateDeclared(conversion("{\"conversionReviewVersions\": [\"v1\"], \"versions\": [\"v1\", \"v2\"]}")));
        assertTrue(r.conversion());
        assertEquals(WebhookRegistration.Type.conversion, r.type());
        assertEquals("widgets.shop.tollgate.dev", r.name());
        assertEquals(List.of("v1alpha1", "v1beta1", "v1"), r.versions());
        assertEquals(readJson("{\"conversionReviewVersions\": [\"v1\", \"v1beta1\"]}"), r.webhook());
    }

    private static WebhookRegistration conversion(String mergePatch) {
        WebhookRegistration base = Registrations.read("demo",
                new ByteArrayInputStream(VALID_CONVERSION.getBytes(StandardCharsets.UTF_8)), "test").get(0);
        merge(base.entry(), readJson(mergePatch));
        return base;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejectedConfigurations")
    void rejectsConfiguration(String why, String mergePatch, String expected) {
        ObjectNode config = (ObjectNode) readJson("""
                {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
                 "metadata": {"name": "tollgate"}, "webhooks": [%s]}""".formatted(webhook("{}")));
        merge(config, readJson(mergePatch));
        List<String> errors = RegistrationValidator.validateConfiguration(config);
        assertTrue(errors.stream().anyMatch(e -> e.contains(expected)),
                why + ": expected a problem containing \"" + expected + "\", got " + errors);
    }

    @org.junit.jupiter.api.Test
    void acceptsAValidConfiguration() {
        JsonNode config = readJson("""
                {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
                 "metadata": {"name": "tollgate"}, "webhooks": [%s]}""".formatted(
                webhook("{\"name\": \"b.tollgate.dev\", \"reinvocationPolicy\": \"IfNeeded\"}")));
        assertEquals(List.of(), RegistrationValidator.validateConfiguration(config));
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    private static Arguments row(String why, String mergePatch, String expected) {
        return Arguments.of(why, mergePatch, expected);
    }

    private static WebhookRegistration entry(String mergePatch) {
        WebhookRegistration base = Registrations.read("demo",
                new ByteArrayInputStream(VALID_ENTRY.getBytes(StandardCharsets.UTF_8)), "test").get(0);
        merge(base.entry(), readJson(mergePatch));
        return base;
    }

    /** A configuration's webhook: the valid entry minus Tollgate's fields, with a clientConfig, then the patch. */
    private static String webhook(String mergePatch) {
        ObjectNode w = entry("{}").webhook();
        w.set("clientConfig", readJson("{\"url\": \"https://fn.example/demo\", \"caBundle\": \"LS0tLS1CRUdJTg==\"}"));
        merge(w, readJson(mergePatch));
        return w.toString();
    }

    private static String url(String url) {
        return "{\"clientConfig\": {\"url\": \"" + url + "\"}}";
    }

    private static String rule(String field, String value) {
        ObjectNode rule = (ObjectNode) entry("{}").entry().path("rules").get(0).deepCopy();
        rule.set(field, readJson(value));
        return "{\"rules\": [" + rule + "]}";
    }

    private static String selector(String expression) {
        return "{\"namespaceSelector\": {\"matchExpressions\": [" + expression + "]}}";
    }

    private static String conditions(int count) {
        ArrayNode list = JSON.createArrayNode();
        for (int i = 0; i < count; i++) {
            list.addObject().put("name", "c" + i).put("expression", "true");
        }
        return list.toString();
    }

    /** RFC 7386 merge patch, enough for these rows: objects merge, null removes, anything else replaces. */
    private static void merge(ObjectNode target, JsonNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
            var e = it.next();
            if (e.getValue().isNull()) {
                target.remove(e.getKey());
            } else if (e.getValue().isObject() && target.path(e.getKey()).isObject()) {
                merge((ObjectNode) target.get(e.getKey()), e.getValue());
            } else {
                target.set(e.getKey(), e.getValue());
            }
        }
    }

    private static JsonNode readJson(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("bad test row: " + json, e);
        }
    }
}
