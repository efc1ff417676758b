package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.functions.celpolicy.ValidatingPolicies;
import dev.tollgate.functions.crdconversion.DatabaseConversion;
import dev.tollgate.simulator.cli.TestCommand;

/**
 * {@code tollgate test}: the shipped functions' test files pass; a wrong expectation fails with expected vs actual;
 * bad files are bad input in one line; policies are type checked before the cases; JSON and JUnit XML; {@code --url}.
 * The CEL functions run with each file's own policies in this process, so no bundle is served here (asking for it
 * fails the test); the whole bundle is {@code TestCommandIT}'s.
 */
class TestCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path ROOT = ConvertCommandTest.ProjectRootHolder.root();
    private static final List<String> SHIPPED = List.of("functions/cel-policy/tollgate-test.yaml",
            "functions/cel-mutate/tollgate-test.yaml", "functions/crd-conversion/tollgate-test.yaml");

    @TempDir
    Path dir;

    /** {@code tollgate test} with no bundle (asking for it fails the test); shared with GatorSuitesTest. */
    static CapturedCommand.Output run(String... args) {
        TestCommand command = new TestCommand(() -> {
            throw new AssertionError("the in-process bundle was asked for");
        }, () -> Map.of("crd-conversion", new DatabaseConversion()), key -> "");
        return CapturedCommand.run(command, args);
    }

    private static String shipped(String file) {
        return ROOT.resolve(file).toString();
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** The cel-mutate examples (absolute, so that the test files can be anywhere). */
    private static String celMutateExamples() {
        return ROOT.resolve("functions/cel-mutate/examples").toString();
    }

    @Test
    void theShippedFunctionsTestFilesPass() throws Exception {
        Path junit = dir.resolve("junit.xml");
        List<String> args = new ArrayList<>(SHIPPED.stream().map(TestCommandTest::shipped).toList());
        args.addAll(List.of("--junit", junit.toString()));
        CapturedCommand.Output out = run(args.toArray(String[]::new));
        assertEquals(0, out.exit(), out.stdout() + out.stderr());
        assertTrue(out.stdout().endsWith("\n16 cases: 16 passed, 0 failed\n"), out.stdout());
        assertTrue(out.stdout().startsWith("FILE "), "no type check findings for the shipped policies:\n"
                + out.stdout());
        assertTrue(out.stdout().contains("replicas over the test limit are denied in sandbox"), out.stdout());

        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        Element suites = xml.getDocumentElement();
        assertEquals("testsuites", suites.getTagName());
        assertEquals("16", suites.getAttribute("tests"));
        assertEquals("0", suites.getAttribute("failures"));
        assertEquals(3, suites.getElementsByTagName("testsuite").getLength());
        assertEquals(0, suites.getElementsByTagName("failure").getLength());
    }

    @Test
    void aWrongExpectationFailsWithExpectedVersusActual() throws Exception {
        Path file = write("wrong.yaml", """
                functions: [cel-mutate]
                policies:
                  cel-mutate: [%s]
                cases:
                - name: the sidecar as expected
                  object: {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: shop},
                           spec: {containers: [{name: a, image: "registry.example.com/a:1"}]}}
                  expect:
                    object:
                      spec:
                        initContainers: [{name: mesh-proxy, image: "mesh/proxy:v1.0.0"}]
                - name: a wrong image and message
                  object: {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: shop},
                           spec: {containers: [{name: a, image: "registry.example.com/a:1"}]}}
                  expect:
                    allowed: false
                    message: "no sidecar"
                    object:
                      spec:
                        initContainers: [{name: mesh-proxy, image: "mesh/proxy:v2.0.0"}]
                """.formatted(celMutateExamples()));
        Path junit = dir.resolve("junit.xml");
        CapturedCommand.Output out = run(file.toString(), "--junit", junit.toString());
        assertEquals(1, out.exit(), out.stdout() + out.stderr());
        String text = out.stdout();
        assertTrue(text.contains("FAIL   allowed, 1 patch operation"), text);
        assertTrue(text.contains("FAIL " + file + ": case 'a wrong image and message'\n"
                + "  expect.allowed: expected denied, got allowed, 1 patch operation\n"
                + "  expect.message: expected a message containing \"no sidecar\", got no message (allowed, 1 patch "
                + "operation)\n"
                + "  expect.object: expected vs actual\n"
                + "    --- expected\n"
                + "    +++ actual\n"
                + "    @@ -1,4 +1,4 @@\n"
                + "     spec:\n"
                + "       initContainers:\n"
                + "         - name: mesh-proxy\n"), text);
        assertTrue(text.contains("\n    -      image: mesh/proxy:v2.0.0\n"), text);
        assertTrue(text.contains("\n    +      image: mesh/proxy:v1.0.0\n"), text);
        assertTrue(text.endsWith("\n2 cases: 1 passed, 1 failed\n"), text);

        Document xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertEquals("1", xml.getDocumentElement().getAttribute("failures"));
        Element failure = (Element) xml.getElementsByTagName("failure").item(0);
        assertEquals("a wrong image and message", ((Element) failure.getParentNode()).getAttribute("name"));
        assertTrue(failure.getTextContent().contains("-      image: mesh/proxy:v2.0.0"), failure.getTextContent());

        CapturedCommand.Output json = run(file.toString(), "-o", "json");
        assertEquals(1, json.exit(), json.stderr());
        JsonNode report = JSON.readTree(json.stdout());
        assertEquals(1, report.path("summary").path("failed").asInt());
        JsonNode failed = report.path("files").path(0).path("cases").path(1);
        assertEquals(List.of("expect.allowed", "expect.message", "expect.object"),
                failed.path("failures").findValuesAsText("field"));
        assertEquals("mesh-proxy", failed.path("report").path("object").path("spec").path("initContainers").path(0)
                .path("name").asText());
    }

    /** Every other expectation, each made to fail once: warnings, code, patch, audit annotations, conversions. */
    @Test
    void eachKindOfExpectationCanFail() throws Exception {
        Path file = write("each.yaml", """
                functions: [cel-policy]
                policies:
                  cel-policy: [%s]
                cases:
                - name: warnings
                  object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: w, namespace: sandbox},
                           spec: {selector: {matchLabels: {a: w}}, template: {metadata: {labels: {a: w}},
                           spec: {containers: [{name: w, image: "registry.example.com/w"}]}}}}
                  expect: {warnings: []}
                - name: code
                  object: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop},
                           spec: {containers: [{name: p, image: "docker.io/p:1"}]}}
                  expect: {code: 422}
                - name: patch
                  object: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop},
                           spec: {containers: [{name: p, image: "registry.example.com/p:1"}]}}
                  expect: {patch: [{op: add, path: /metadata/labels, value: {}}]}
                - name: audit annotations
                  object: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop},
                           spec: {containers: [{name: p, image: "docker.io/p:1"}]}}
                  expect: {auditAnnotations: {}}
                """.formatted(ROOT.resolve("functions/cel-policy/examples")));
        CapturedCommand.Output out = run(file.toString(), "-o", "json");
        assertEquals(1, out.exit(), out.stdout() + out.stderr());
        JsonNode cases = JSON.readTree(out.stdout()).path("files").path(0).path("cases");
        assertEquals(4, cases.size());
        for (JsonNode c : cases) {
            assertEquals(List.of("expect." + (c.path("name").asText().equals("audit annotations")
                    ? "auditAnnotations" : c.path("name").asText())), c.path("failures").findValuesAsText("field"),
                    c.toString());
        }
        assertTrue(cases.path(0).path("failures").path(0).path("diff").toString().contains("Validation failed for "
                + "ValidatingAdmissionPolicy 'no-latest-tag.example.com'"), cases.path(0).toString());
        assertEquals("403", cases.path(1).path("failures").path(0).path("actual").asText().substring(0, 3));

        Path conversion = write("conversion.yaml", """
                functions: [crd-conversion]
                cases:
                - name: v1
                  manifest: %s
                  expect:
                    converted:
                      data.tollgate.dev/v1: {spec: {tlsMode: require}}
                """.formatted(ROOT.resolve("functions/crd-conversion/examples/orders.v1alpha1.yaml")));
        CapturedCommand.Output converted = run(conversion.toString());
        assertEquals(1, converted.exit(), converted.stdout() + converted.stderr());
        assertTrue(converted.stdout().contains("  expect.converted.data.tollgate.dev/v1: expected vs actual\n"
                + "    --- expected\n    +++ actual\n"), converted.stdout());
        assertTrue(converted.stdout().contains("\n    -  tlsMode: require\n"), converted.stdout());
        assertTrue(converted.stdout().contains("\n    +  tlsMode: disable\n"), converted.stdout());
    }

    @Test
    void badFilesAreBadInputInOneLine() throws Exception {
        String pod = "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: p, image: i}]}}";
        write("two.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\n"
                + "kind: Pod\nmetadata: {name: b}\n");
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("cases:\n- name: typo\n  object: " + pod + "\n  expect: {allowd: true}\n",
                "case 'typo': expect.allowd: unknown field (known: allowed, auditAnnotations, code, converted, message, "
                        + "object, patch, warnings)");
        cases.put("cases:\n- name: no expectation\n  object: " + pod + "\n",
                "case 'no expectation': expect: required: at least one of allowed, auditAnnotations, code, converted, "
                        + "message, object, patch, warnings");
        cases.put("cases:\n- name: two\n  manifest: two.yaml\n  expect: {allowed: true}\n",
                "case 'two': manifest: holds 2 objects; a case submits one");
        cases.put("cases:\n- name: missing\n  manifest: nosuch.yaml\n  expect: {allowed: true}\n",
                "case 'missing': manifest: nosuch.yaml: no such file (relative to the test file)");
        cases.put("cases:\n- name: update\n  operation: UPDATE\n  object: " + pod + "\n  expect: {allowed: true}\n",
                "case 'update': oldObject: UPDATE needs the stored object (oldObject or oldManifest)");
        cases.put("cases:\n- name: op\n  operation: PATCH\n  object: " + pod + "\n  expect: {allowed: true}\n",
                "case 'op': operation: CREATE, UPDATE or DELETE, got 'PATCH'");
        cases.put("cases:\n- name: mixed\n  object: " + pod + "\n  expect: {allowed: true, converted: {a/v1: {}}}\n",
                "case 'mixed': expect.converted: a conversion case expects converted objects only");
        cases.put("cases:\n- name: same\n  object: " + pod + "\n  expect: {allowed: true}\n- name: same\n  object: "
                + pod + "\n  expect: {allowed: true}\n", "case 'same': name: another case has this name");
        cases.put("policies:\n  require-labels: [two.yaml]\ncases:\n- name: a\n  object: " + pod
                + "\n  expect: {allowed: true}\n",
                "policies.require-labels: only the configuration of cel-policy and cel-mutate can be given");
        cases.put("functions: [nosuch]\ncases:\n- name: a\n  object: " + pod + "\n  expect: {allowed: true}\n",
                "functions: nosuch is not a bundled function (bundled: ");
        cases.put("cases: []\n", "cases: required: a list of at least one case");
        cases.put("cases:\n- name: a\n  object: {apiVersion: apps/v1, kind: Deploymnet, metadata: {name: d}}\n"
                + "  expect: {allowed: true}\n", "case 'a': object: kind Deploymnet is not served by apps/v1 (did you mean Deployment?); for a custom "
                        + "resource, give its CRD in schemas");
        cases.put("policies:\n  cel-policy: [two.yaml]\nfunctions: [cel-policy]\ncases:\n- name: a\n  object: " + pod
                + "\n  expect: {allowed: true}\n", "policies.cel-policy: invalid policy configuration: ");
        int i = 0;
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path file = write("bad" + i++ + ".yaml", c.getKey());
            CapturedCommand.Output out = run(file.toString());
            assertEquals(2, out.exit(), c.getKey() + "\n" + out.stdout() + out.stderr());
            assertEquals(1, out.stderr().lines().count(), out.stderr());
            assertTrue(out.stderr().startsWith("tollgate test: " + file + ": ") && out.stderr().contains(c.getValue()),
                    "expected '" + c.getValue() + "' in: " + out.stderr());
            assertEquals("", out.stdout(), "nothing is run when a file is bad");
        }
        CapturedCommand.Output notYaml = run(write("broken.yaml", "cases: [\n").toString());
        assertEquals(2, notYaml.exit());
        assertTrue(notYaml.stderr().startsWith("tollgate test: " + dir.resolve("broken.yaml") + ":2:"),
                notYaml.stderr());
        CapturedCommand.Output none = run(dir.resolve("nosuch.yaml").toString());
        assertEquals(2, none.exit());
        assertEquals("tollgate test: " + dir.resolve("nosuch.yaml") + ": no such file\n", none.stderr());
        CapturedCommand.Output folder = run(dir.toString());
        assertEquals(2, folder.exit());
        assertEquals("tollgate test: " + dir + ": a folder; give the test files (e.g. " + dir
                + "/*/tollgate-test.yaml)\n", folder.stderr());
    }

    /**
     * {@code --kubeconfig} (CRDs for type checking) of a cluster that cannot be read is bad input in one line naming
     * the server, as for {@code review} and {@code audit}; {@code --context} alone is a usage error.
     */
    @Test
    void aClusterThatCannotBeReadIsBadInputInOneLine() throws Exception {
        Path file = write("pod-test.yaml", "functions: [cel-policy]\npolicies:\n  cel-policy: ["
                + ROOT.resolve("functions/cel-policy/examples") + "]\ncases:\n- name: a\n  object: {apiVersion: v1, "
                + "kind: Pod, metadata: {name: p, namespace: shop}, spec: {containers: [{name: p, image: i}]}}\n"
                + "  expect: {code: 200}\n");
        // Port 1 of the loopback: nothing listens there.
        Path kubeconfig = write("kubeconfig", """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                current-context: c
                """);
        CapturedCommand.Output out = run("--kubeconfig", kubeconfig.toString(), file.toString());
        assertEquals(2, out.exit(), out.stdout() + out.stderr());
        assertEquals(1, out.stderr().lines().count(), out.stderr());
        assertTrue(out.stderr().startsWith("tollgate test: cannot reach the cluster at https://127.0.0.1:1/ to list "
                + "apiextensions.k8s.io/v1 customresourcedefinitions ("), out.stderr());
        assertEquals("", out.stdout());

        CapturedCommand.Output missing = run("--kubeconfig", dir.resolve("nosuch").toString(), file.toString());
        assertEquals(2, missing.exit());
        assertTrue(missing.stderr().startsWith("tollgate test: --kubeconfig " + dir.resolve("nosuch")
                + ": cannot read it ("), missing.stderr());

        CapturedCommand.Output contextAlone = run("--context", "c", file.toString());
        assertEquals(2, contextAlone.exit());
        assertEquals("tollgate test: --context needs --kubeconfig\n", contextAlone.stderr());
    }

    /**
     * Type checking before the cases: an expression the API server refuses fails the run in its words (an error),
     * one that only does not fit the matched kind's schema is a warning (here a CRD given in schemas).
     */
    @Test
    void policiesAreTypeCheckedFirst() throws Exception {
        write("policy.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: db.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [data.tollgate.dev], apiVersions: [v1], operations: [CREATE], resources: [databases]}
                  validations:
                  - expression: "object.spec.replicsa <= 5"
                  - expression: "'not a bool'"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: db-binding.example.com}
                spec: {policyName: db.example.com, validationActions: [Deny]}
                """);
        String test = """
                functions: [cel-policy]
                policies:
                  cel-policy: [policy.yaml]
                schemas: [%s]
                cases:
                - name: a pod
                  object: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: p, image: i}]}}
                  expect: {allowed: true}
                """.formatted(ROOT.resolve("functions/crd-conversion/crd.yaml"));
        Path file = write("typed.yaml", test);
        CapturedCommand.Output out = run(file.toString());
        assertEquals(1, out.exit(), out.stdout() + out.stderr());
        String source = "ValidatingAdmissionPolicy 'db.example.com' (" + dir.resolve("policy.yaml") + "#1)";
        // The API server's field error for a validation whose result is not a bool (admission/plugin/cel/compile.go).
        assertTrue(out.stdout().startsWith("type check:\n  error: " + source + ": spec.validations[1].expression: "
                + "Invalid value: \"'not a bool'\": must evaluate to bool but got string\n"), out.stdout());
        // typechecking.go: the kind, then cel-go's issue with its position.
        assertTrue(out.stdout().contains("  warning: " + source + ": spec.validations[0].expression: "
                + "data.tollgate.dev/v1, Kind=Database: ERROR: <input>:1:12: undefined field 'replicsa'\n"),
                out.stdout());
        assertTrue(out.stdout().endsWith("1 case: 1 passed, 0 failed; 1 policy expression the API server would "
                + "refuse\n"), out.stdout());

        write("policy.yaml", Files.readString(dir.resolve("policy.yaml")).replace("  - expression: \"'not a bool'\"\n",
                ""));
        CapturedCommand.Output warned = run(file.toString());
        assertEquals(0, warned.exit(), "a warning does not fail the run: " + warned.stdout());
        assertTrue(warned.stdout().contains("undefined field 'replicsa'"), warned.stdout());
    }

    /**
     * Built-in kinds are type checked from the schemas the simulator ships (shared/cel-admission KubernetesSchemas),
     * no schemas given: mistyped policies on Pods, each caught before any case in the API server's words. Errors
     * where it refuses the policy (admission/plugin/cel/compile.go: a result that is not a bool, an unknown function,
     * cel-go checker/errors.go undeclaredReference); warnings where its type checking only warns
     * (admission/plugin/policy/validating/typechecking.go, cel-go checker/errors.go undefinedField and
     * noMatchingOverload): a misspelled field in a validation, a messageExpression, a variable, a matchCondition and
     * a mutation, and a wrong type comparison.
     */
    @Test
    void builtInKindsAreTypeCheckedWithoutSchemas() throws Exception {
        write("pods.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: pods.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  variables:
                  - name: secrets
                    expression: "object.spec.imagePullSecret"
                  matchConditions:
                  - name: unscheduled
                    expression: "!has(object.spec.nodeNme)"
                  validations:
                  - expression: "object.spec.containres.all(c, c.image != '')"
                  - expression: "object.spec.priority > '1000'"
                  - expression: "object.metadata.name"
                  - expression: "object.metadata.name.startsWth('web')"
                  - expression: "true"
                    messageExpression: "'too many in ' + object.metadata.nam"
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: pods-binding.example.com}
                spec: {policyName: pods.example.com, validationActions: [Deny]}
                """);
        write("mutate.yaml", """
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicy
                metadata: {name: team.example.com}
                spec:
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  mutations:
                  - patchType: ApplyConfiguration
                    applyConfiguration:
                      expression: "Object{metadata: Object.metadata{labels: {'team': object.metadata.namespce}}}"
                ---
                apiVersion: admissionregistration.k8s.io/v1beta1
                kind: MutatingAdmissionPolicyBinding
                metadata: {name: team-binding.example.com}
                spec: {policyName: team.example.com}
                """);
        Path file = write("pods-test.yaml", """
                functions: [cel-policy, cel-mutate]
                policies:
                  cel-policy: [pods.yaml]
                  cel-mutate: [mutate.yaml]
                cases:
                - name: a deployment is not a pod
                  object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: d, namespace: shop},
                           spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}},
                                  spec: {containers: [{name: c, image: i}]}}}}
                  expect: {allowed: true}
                """);
        CapturedCommand.Output out = run(file.toString());
        assertEquals(1, out.exit(), out.stdout() + out.stderr());
        String vap = "ValidatingAdmissionPolicy 'pods.example.com' (" + dir.resolve("pods.yaml") + "#1)";
        String map = "MutatingAdmissionPolicy 'team.example.com' (" + dir.resolve("mutate.yaml") + "#1)";
        for (String expected : List.of(
                "  error: " + vap + ": spec.validations[2].expression: Invalid value: \"object.metadata.name\": must "
                        + "evaluate to bool but got dyn\n",
                "  error: " + vap + ": spec.validations[3].expression: Invalid value: \"object.metadata.name"
                        + ".startsWth('web')\": compilation failed: ERROR: <input>:1:31: undeclared reference to "
                        + "'startsWth' (in container '')\n",
                "  warning: " + vap + ": spec.variables[0].expression: /v1, Kind=Pod: ERROR: <input>:1:12: undefined "
                        + "field 'imagePullSecret'\n",
                "  warning: " + vap + ": spec.matchConditions[0].expression: /v1, Kind=Pod: ERROR: <input>:1:5: "
                        + "undefined field 'nodeNme'\n",
                "  warning: " + vap + ": spec.validations[0].expression: /v1, Kind=Pod: ERROR: <input>:1:12: "
                        + "undefined field 'containres'\n",
                "  warning: " + vap + ": spec.validations[1].expression: /v1, Kind=Pod: ERROR: <input>:1:22: found "
                        + "no matching overload for '_>_' applied to '(int, string)'\n",
                "  warning: " + vap + ": spec.validations[4].messageExpression: /v1, Kind=Pod: ERROR: <input>:1:33: "
                        + "undefined field 'nam'\n",
                "  warning: " + map + ": spec.mutations[0].applyConfiguration.expression: /v1, Kind=Pod: ERROR: "
                        + "<input>:1:66: undefined field 'namespce'\n")) {
            assertTrue(out.stdout().contains(expected), () -> "expected\n" + expected + "in\n" + out.stdout());
        }
        assertTrue(out.stdout().endsWith("1 case: 1 passed, 0 failed; 2 policy expressions the API server would "
                + "refuse\n"), out.stdout());
    }

    /** Against --url: the function there answers with its own configuration (the file's policies are not loaded). */
    @Test
    void runsAgainstAUrl() throws Exception {
        CelPolicy policy = new CelPolicy(ValidatingPolicies.load(ConfigFiles.read(List.of(
                ROOT.resolve("functions/cel-policy/examples"))), CelPolicy.environment("none"),
                Namespaces.Unknown.EMPTY));
        AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());
        List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            HandlerResult<AdmissionReview> r = handler.handle(exchange.getRequestBody().readAllBytes(), "cel-policy",
                    policy);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(r.status(), r.body().length);
            exchange.getResponseBody().write(r.body());
            exchange.close();
        });
        server.start();
        try {
            CapturedCommand.Output out = run(shipped("functions/cel-policy/tollgate-test.yaml"), "--url",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/");
            assertEquals(0, out.exit(), out.stdout() + out.stderr());
            assertTrue(out.stdout().contains("note: " + Path.of(shipped("functions/cel-policy/tollgate-test.yaml"))
                    + ": policies: not loaded: the functions at --url serve their own configuration"), out.stdout());
            assertEquals(6, paths.size(), paths.toString());
            assertTrue(paths.stream().allMatch("/cel-policy"::equals), paths.toString());
        } finally {
            server.stop(0);
        }
    }

    /**
     * A function of one's own, not bundled (as the archetype generates), served at a URL: its webhook.yaml says what is
     * registered, and the cases name it.
     */
    @Test
    void aFunctionOfOnesOwnRunsAtAUrlFromItsWebhookYaml() throws Exception {
        Path webhook = Files.createDirectories(dir.resolve("deny-latest-tag")).resolve("webhook.yaml");
        Files.writeString(webhook, """
                name: deny-latest-tag.example.com
                type: validating
                path: /deny-latest-tag
                rules:
                  - {operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"], scope: Namespaced}
                failurePolicy: Fail
                sideEffects: None
                timeoutSeconds: 10
                admissionReviewVersions: ["v1"]
                """);
        Path file = write("deny-latest-tag-test.yaml", """
                functions: [deny-latest-tag]
                cases:
                - name: a latest tag is denied
                  object: {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
                           spec: {containers: [{name: web, image: "nginx:latest"}]}}
                  expect: {allowed: false, message: "image nginx:latest uses the latest tag"}
                - name: a pinned tag is allowed
                  object: {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop},
                           spec: {containers: [{name: web, image: "nginx:1.27"}]}}
                  expect: {allowed: true}
                """);
        // The function: denies an image tagged latest, as the archetype's validating example does.
        dev.tollgate.admission.ValidatingPolicy policy = request -> {
            for (JsonNode c : request.object().json().path("spec").path("containers")) {
                String image = c.path("image").asText();
                if (image.endsWith(":latest")) {
                    return dev.tollgate.admission.Verdict.deny("image " + image + " uses the latest tag");
                }
            }
            return dev.tollgate.admission.Verdict.allow();
        };
        AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());
        List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            HandlerResult<AdmissionReview> r = handler.handle(exchange.getRequestBody().readAllBytes(),
                    "deny-latest-tag", policy);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(r.status(), r.body().length);
            exchange.getResponseBody().write(r.body());
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            CapturedCommand.Output out = run(file.toString(), "--url", url, "--webhook", webhook.toString());
            assertEquals(0, out.exit(), out.stdout() + out.stderr());
            assertEquals(List.of("/deny-latest-tag", "/deny-latest-tag"), paths);

            CapturedCommand.Output notBundled = run(file.toString(), "--url", url);
            assertEquals(2, notBundled.exit(), notBundled.stdout() + notBundled.stderr());
            assertTrue(notBundled.stderr().contains(": functions: deny-latest-tag is not a bundled function"),
                    notBundled.stderr());
        } finally {
            server.stop(0);
        }
        CapturedCommand.Output noUrl = run(file.toString(), "--webhook", webhook.toString());
        assertEquals(2, noUrl.exit());
        assertEquals("tollgate test: --webhook needs --url: where its function is served (only the bundled functions "
                + "run in-process), e.g. --url http://127.0.0.1:8080", noUrl.stderr().strip());
    }
}
