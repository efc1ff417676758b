package dev.tollgate.gatekeeper.gator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.admission.ConfigFiles;

/**
 * A gator test suite ({@code test.gatekeeper.sh/v1alpha1} {@code Suite}, gatekeeper pkg/gator/verify/suite.go): tests
 * that each load a template and a constraint, and cases of objects with assertions. Paths are relative to the suite
 * file.
 */
public record GatorSuite(Path file, String name, boolean skip, List<Test> tests) {

    public static final String API_VERSION = "test.gatekeeper.sh/v1alpha1";
    public static final String KIND = "Suite";

    /** tests[i]. {@code invalid}: the constraint must be refused. */
    public record Test(String name, String template, String constraint, boolean invalid, boolean skip,
            List<Case> cases) {
    }

    /** tests[i].cases[j]: one object (or AdmissionReview), the inventory around it, and what must come out. */
    public record Case(String name, String object, List<String> inventory, List<Assertion> assertions,
            boolean skip) {
    }

    /**
     * assertion.go: {@code violations} is {@code yes} (at least one, the default), {@code no}, or an exact count, of
     * the violations whose message {@code message} (a regular expression) finds.
     */
    public record Assertion(String violations, String message) {
    }

    public static boolean isSuite(JsonNode object) {
        return API_VERSION.equals(object.path("apiVersion").asText()) && KIND.equals(object.path("kind").asText());
    }

    /**
     * Reads a suite file.
     *
     * @throws IllegalArgumentException one line naming the file and field, for a file that is not a valid Suite
     */
    public static GatorSuite read(Path file) {
        List<ConfigFiles.Document> docs = ConfigFiles.read(List.of(file));
        if (docs.size() != 1 || !isSuite(docs.get(0).object())) {
            throw new IllegalArgumentException(file + ": expected one " + KIND + " (" + API_VERSION + ")");
        }
        JsonNode s = docs.get(0).object();
        List<Test> tests = new ArrayList<>();
        JsonNode ts = s.path("tests");
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            String at = file + ": tests[" + i + "]";
            List<Case> cases = new ArrayList<>();
            JsonNode cs = t.path("cases");
            for (int j = 0; j < cs.size(); j++) {
                JsonNode c = cs.get(j);
                List<Assertion> assertions = new ArrayList<>();
                for (JsonNode a : c.path("assertions")) {
                    JsonNode v = a.path("violations");
                    // A YAML 1.1 reader takes yes / no for booleans; gator's (YAML 1.2) keeps them strings.
                    String violations = v.isMissingNode() || v.isNull() ? "yes"
                            : v.isBoolean() ? (v.booleanValue() ? "yes" : "no") : v.asText();
                    if (!violations.equals("yes") && !violations.equals("no") && !violations.matches("\\d+")) {
                        throw new IllegalArgumentException(at + ".cases[" + j + "].assertions: violations must be a"
                                + " nonnegative integer, \"yes\", or \"no\", got '" + violations + "'");
                    }
                    assertions.add(new Assertion(violations, a.has("message") ? a.path("message").asText() : null));
                }
                List<String> inventory = new ArrayList<>();
                c.path("inventory").forEach(p -> inventory.add(p.asText()));
                cases.add(new Case(c.path("name").asText("case " + j), c.path("object").asText(""), inventory,
                        assertions, c.path("skip").asBoolean(false)));
            }
            if (t.has("expansion")) {
                throw new IllegalArgumentException(at + ".expansion: ExpansionTemplates are not supported");
            }
            tests.add(new Test(t.path("name").asText("test " + i), t.path("template").asText(""),
                    t.path("constraint").asText(""), t.path("invalid").asBoolean(false), t.path("skip").asBoolean(false),
                    List.copyOf(cases)));
        }
        return new GatorSuite(file, s.path("metadata").path("name").asText(file.toString()),
                s.path("skip").asBoolean(false), List.copyOf(tests));
    }
}
