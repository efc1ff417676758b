package dev.tollgate.simulator.policytest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.Operation;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.Yaml;

/**
 * A {@code tollgate test} file: what to run (the bundled functions, optionally only some, with the CEL policies of
 * the file) and the cases, each an object submitted with its expected outcome. Paths in it are relative to the file.
 * Every field is checked when the file is read; a mistake is bad input naming the file, the case and the field.
 *
 * @param functions  the bundled functions whose webhooks are played (empty: all of them, as {@code tollgate review})
 * @param policies   per CEL function ({@code cel-policy}, {@code cel-mutate}), the files or folders of its
 *                   configuration for this file's cases, instead of the shipped policies
 * @param namespaces Namespace objects the cluster holds (namespaceSelector, namespaceObject)
 * @param schemas    CustomResourceDefinitions or OpenAPI v3 documents, for type checking the policies
 */
public record TestFile(Path path, List<String> functions, Map<String, List<Path>> policies, List<Path> namespaces,
        List<Path> schemas, List<TestCase> cases) {

    /** The CEL functions whose configuration a test file may give. */
    public static final List<String> CEL_FUNCTIONS = List.of("cel-policy", "cel-mutate");

    private static final Set<String> FILE_FIELDS = Set.of("functions", "policies", "namespaces", "schemas", "cases");
    private static final Set<String> CASE_FIELDS = Set.of("name", "manifest", "object", "operation", "oldManifest",
            "oldObject", "user", "groups", "expect");
    private static final Set<String> EXPECT_FIELDS = Set.of("allowed", "code", "message", "warnings", "patch",
            "object", "auditAnnotations", "converted");

    /**
     * One case: the object (from a file or inline), how it is submitted, and what must come out.
     *
     * @param oldObject the stored object for UPDATE, else null
     */
    public record TestCase(String name, InputManifest object, Operation operation, InputManifest oldObject,
            String user, List<String> groups, Expect expect) {

        public boolean conversion() {
            return !expect.converted().isEmpty();
        }
    }

    /**
     * The expectations of a case; a null (or, for {@code converted}, empty) field is not checked.
     *
     * @param message          a substring of the message the client sees when rejected
     * @param warnings         substrings of the warnings, one per warning, in order (an empty list: no warning)
     * @param patch            the overall JSON Patch from the submitted (defaulted) object to the admitted one
     * @param object           a subset of the admitted object
     * @param auditAnnotations annotations that must be recorded with these values (others may be too; an empty
     *                         mapping: none)
     * @param converted        for a conversion: per desired apiVersion, a subset of the converted object
     */
    public record Expect(Boolean allowed, Integer code, String message, List<String> warnings, JsonNode patch,
            JsonNode object, Map<String, String> auditAnnotations, Map<String, JsonNode> converted) {
    }

    /**
     * Reads and checks a test file.
     *
     * @throws InputException naming the file, the case and the field of the first mistake
     */
    public static TestFile read(Path file) {
        if (Files.isDirectory(file)) {
            throw new InputException(file + ": a folder; give the test files (e.g. " + file + "/*/tollgate-test.yaml)");
        }
        if (!Files.isRegularFile(file)) {
            throw new InputException(file + ": no such file");
        }
        List<JsonNode> docs = Yaml.readDocuments(file);
        if (docs.size() != 1 || !docs.get(0).isObject()) {
            throw new InputException(file + ": a test file is one YAML mapping (functions, policies, namespaces, "
                    + "schemas, cases), got " + (docs.size() == 1 ? "a " + docs.get(0).getNodeType() : docs.size()
                    + " documents"));
        }
        ObjectNode root = (ObjectNode) docs.get(0);
        Where where = new Where(file, null);
        where.onlyFields(root, FILE_FIELDS, "");
        Path dir = file.toAbsolutePath().getParent();
        List<String> functions = where.strings(root, "functions");
        Map<String, List<Path>> policies = new LinkedHashMap<>();
        JsonNode p = root.get("policies");
        if (p != null) {
            if (!p.isObject()) {
                throw where.bad("policies", "a mapping of function (" + String.join(", ", CEL_FUNCTIONS)
                        + ") to files or folders");
            }
            for (Iterator<String> it = p.fieldNames(); it.hasNext();) {
                String fn = it.next();
                if (!CEL_FUNCTIONS.contains(fn)) {
                    throw where.bad("policies." + fn, "only the configuration of " + String.join(" and ",
                            CEL_FUNCTIONS) + " can be given");
                }
                policies.put(fn, where.paths((ObjectNode) p, fn, "policies." + fn, dir));
            }
        }
        List<Path> namespaces = where.paths(root, "namespaces", "namespaces", dir);
        List<Path> schemas = where.paths(root, "schemas", "schemas", dir);
        JsonNode casesNode = root.get("cases");
        if (casesNode == null || !casesNode.isArray() || casesNode.isEmpty()) {
            throw where.bad("cases", "required: a list of at least one case");
        }
        List<TestCase> cases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode c : casesNode) {
            TestCase tc = readCase(file, dir, c, i++);
            if (!names.add(tc.name())) {
                throw new Where(file, tc.name()).bad("name", "another case has this name");
            }
            cases.add(tc);
        }
        return new TestFile(file, functions, policies, namespaces, schemas, List.copyOf(cases));
    }

    private static TestCase readCase(Path file, Path dir, JsonNode c, int index) {
        Where where = new Where(file, "#" + index);
        if (!c.isObject()) {
            throw where.bad("", "a case is a mapping (name, manifest or object, expect, ...)");
        }
        String name = c.path("name").asText("");
        if (!c.path("name").isTextual() || name.isBlank()) {
            throw where.bad("name", "required: a name for the case");
        }
        where = new Where(file, name);
        where.onlyFields((ObjectNode) c, CASE_FIELDS, "");
        InputManifest object = where.object(c, "manifest", "object", dir, true);
        Operation operation;
        try {
            operation = Operation.valueOf(c.path("operation").asText("CREATE"));
        } catch (IllegalArgumentException e) {
            throw where.bad("operation", "CREATE, UPDATE or DELETE, got '" + c.path("operation").asText() + "'");
        }
        if (operation == Operation.CONNECT) {
            throw where.bad("operation", "CONNECT is not simulated: use CREATE, UPDATE or DELETE");
        }
        InputManifest old = where.object(c, "oldManifest", "oldObject", dir, false);
        if (operation == Operation.UPDATE && old == null) {
            throw where.bad("oldObject", "UPDATE needs the stored object (oldObject or oldManifest)");
        }
        if (operation != Operation.UPDATE && old != null) {
            throw where.bad(c.has("oldObject") ? "oldObject" : "oldManifest", "only an UPDATE has an old object");
        }
        String user = c.path("user").asText("kubernetes-admin");
        List<String> groups = where.strings(c, "groups");
        if (groups.isEmpty()) {
            groups = List.of("system:masters", "system:authenticated");
        }
        Expect expect = readExpect(where, c.get("expect"));
        if (!expect.converted().isEmpty() && operation != Operation.CREATE) {
            throw where.bad("expect.converted", "a conversion case has no operation");
        }
        return new TestCase(name, object, operation, old, user, groups, expect);
    }

    private static Expect readExpect(Where where, JsonNode e) {
        if (e == null || !e.isObject() || e.isEmpty()) {
            throw where.bad("expect", "required: at least one of " + String.join(", ", EXPECT_FIELDS.stream()
                    .sorted().toList()));
        }
        where.onlyFields((ObjectNode) e, EXPECT_FIELDS, "expect.");
        Boolean allowed = null;
        if (e.has("allowed")) {
            if (!e.get("allowed").isBoolean()) {
                throw where.bad("expect.allowed", "true or false, got " + e.get("allowed"));
            }
            allowed = e.get("allowed").asBoolean();
        }
        Integer code = null;
        if (e.has("code")) {
            if (!e.get("code").isInt()) {
                throw where.bad("expect.code", "an HTTP status code, got " + e.get("code"));
            }
            code = e.get("code").asInt();
        }
        String message = null;
        if (e.has("message")) {
            if (!e.get("message").isTextual()) {
                throw where.bad("expect.message", "a string (a part of the message), got " + e.get("message"));
            }
            message = e.get("message").asText();
        }
        List<String> warnings = e.has("warnings") ? where.strings(e, "expect.warnings", e.get("warnings")) : null;
        JsonNode patch = e.get("patch");
        if (patch != null && !patch.isArray()) {
            throw where.bad("expect.patch", "a JSON Patch (a list of operations), got " + patch.getNodeType());
        }
        JsonNode object = e.get("object");
        if (object != null && !object.isObject()) {
            throw where.bad("expect.object", "a mapping (a part of the admitted object), got " + object.getNodeType());
        }
        Map<String, String> annotations = null;
        if (e.has("auditAnnotations")) {
            JsonNode a = e.get("auditAnnotations");
            if (!a.isObject()) {
                throw where.bad("expect.auditAnnotations", "a mapping of key to value");
            }
            annotations = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!f.getValue().isTextual()) {
                    throw where.bad("expect.auditAnnotations." + f.getKey(), "a string value");
                }
                annotations.put(f.getKey(), f.getValue().asText());
            }
        }
        Map<String, JsonNode> converted = new LinkedHashMap<>();
        if (e.has("converted")) {
            JsonNode cv = e.get("converted");
            if (!cv.isObject() || cv.isEmpty()) {
                throw where.bad("expect.converted", "a mapping of apiVersion (group/version) to the converted "
                        + "object (or a part of it)");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = cv.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!f.getKey().contains("/") || !f.getValue().isObject()) {
                    throw where.bad("expect.converted." + f.getKey(), "a group/version mapped to a mapping");
                }
                converted.put(f.getKey(), f.getValue());
            }
            if (allowed != null || code != null || message != null || warnings != null || patch != null
                    || object != null || annotations != null) {
                throw where.bad("expect.converted", "a conversion case expects converted objects only");
            }
        }
        return new Expect(allowed, code, message, warnings, patch, object, annotations, converted);
    }

    /** Where a mistake is: the file and, inside a case, the case. */
    private record Where(Path file, String testCase) {

        InputException bad(String field, String problem) {
            return new InputException(file + (testCase == null ? "" : ": case '" + testCase + "'")
                    + (field.isEmpty() ? "" : ": " + field) + ": " + problem);
        }

        void onlyFields(ObjectNode node, Set<String> allowed, String prefix) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
                String f = it.next();
                if (!allowed.contains(f)) {
                    throw bad(prefix + f, "unknown field (known: " + String.join(", ", allowed.stream().sorted()
                            .toList()) + ")");
                }
            }
        }

        List<String> strings(JsonNode parent, String field) {
            return parent.has(field) ? strings(parent, field, parent.get(field)) : List.of();
        }

        List<String> strings(JsonNode parent, String field, JsonNode value) {
            if (value.isTextual()) {
                return List.of(value.asText());
            }
            if (!value.isArray()) {
                throw bad(field, "a list of strings, got " + value.getNodeType());
            }
            List<String> out = new ArrayList<>();
            for (JsonNode v : value) {
                if (!v.isTextual()) {
                    throw bad(field, "a list of strings, got an item " + v);
                }
                out.add(v.asText());
            }
            return List.copyOf(out);
        }

        List<Path> paths(ObjectNode parent, String key, String field, Path dir) {
            List<Path> out = new ArrayList<>();
            for (String s : strings(parent, key)) {
                Path p = dir.resolve(s).normalize();
                if (!Files.exists(p)) {
                    throw bad(field, s + ": no such file or folder (relative to the test file)");
                }
                out.add(relative(p));
            }
            return List.copyOf(out);
        }

        /** The object of {@code fileField} (a file holding one object) or {@code inlineField}; exactly one. */
        InputManifest object(JsonNode c, String fileField, String inlineField, Path dir, boolean required) {
            boolean fromFile = c.has(fileField);
            boolean inline = c.has(inlineField);
            if (fromFile && inline) {
                throw bad(inlineField, "give " + fileField + " or " + inlineField + ", not both");
            }
            if (!fromFile && !inline) {
                if (required) {
                    throw bad(inlineField, "required: the object submitted (" + inlineField + ", inline, or "
                            + fileField + ", a file)");
                }
                return null;
            }
            List<InputManifest> read = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            String field = fromFile ? fileField : inlineField;
            if (fromFile) {
                if (!c.get(fileField).isTextual()) {
                    throw bad(fileField, "a file name, got " + c.get(fileField).getNodeType());
                }
                Path p = dir.resolve(c.get(fileField).asText()).normalize();
                if (!Files.isRegularFile(p)) {
                    throw bad(fileField, c.get(fileField).asText() + ": no such file (relative to the test file)");
                }
                read.addAll(InputManifest.read(List.of(relative(p)), problems));
            } else {
                JsonNode o = c.get(inlineField);
                if (!o.isObject()) {
                    throw bad(inlineField, "a Kubernetes object (a mapping), got " + o.getNodeType());
                }
                ObjectNode copy = ((ObjectNode) o).deepCopy();
                if (copy.path("apiVersion").asText("").isEmpty() || copy.path("kind").asText("").isEmpty()
                        || copy.path("metadata").path("name").asText("").isEmpty()
                        && copy.path("metadata").path("generateName").asText("").isEmpty()) {
                    throw bad(inlineField, "apiVersion, kind and metadata.name are required");
                }
                read.add(new InputManifest(file + ": case '" + testCase + "'", copy));
            }
            if (!problems.isEmpty()) {
                throw bad(field, String.join("; ", problems));
            }
            if (read.size() != 1) {
                throw bad(field, "holds " + read.size() + " objects; a case submits one");
            }
            return read.get(0);
        }

        /** Relative to the working directory when below it, as the user gave paths on the command line. */
        private static Path relative(Path p) {
            Path cwd = Path.of("").toAbsolutePath();
            Path abs = p.toAbsolutePath().normalize();
            return abs.startsWith(cwd) ? cwd.relativize(abs) : abs;
        }
    }
}
