package dev.tollgate.gatekeeper.gator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.UserInfo;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.gatekeeper.GatekeeperPolicies;
import dev.tollgate.gatekeeper.Inventory;

/**
 * Runs gator suites as {@code gator verify} does (gatekeeper pkg/gator/verify/runner.go): per test, its template and
 * constraint are loaded afresh; per case, the object is reviewed (an {@code AdmissionReview}'s request as given, any
 * other object as a CREATE of it) with the case's inventory, and every assertion is checked against the violations'
 * messages. Gator gives a plain object no operation at all; here it is a CREATE, the request Tollgate's functions see.
 */
public final class GatorRunner {

    /**
     * One case's outcome: null error when it passed.
     *
     * @param violations the violations' messages (empty for a case that did not get as far as the review)
     */
    public record CaseResult(String test, String name, boolean skipped, String error, List<String> violations,
            double millis) {

        CaseResult(String test, String name, boolean skipped, String error) {
            this(test, name, skipped, error, List.of(), 0);
        }

        public boolean passed() {
            return !skipped && error == null;
        }
    }

    private final KubeCel cel;

    public GatorRunner(KubeCel cel) {
        this.cel = cel;
    }

    /** Every case of the suite, in order; a test that cannot load fails each of its cases with the reason. */
    public List<CaseResult> run(GatorSuite suite) {
        List<CaseResult> out = new ArrayList<>();
        Path dir = suite.file().toAbsolutePath().getParent();
        for (GatorSuite.Test test : suite.tests()) {
            if (suite.skip() || test.skip()) {
                test.cases().forEach(c -> out.add(new CaseResult(test.name(), c.name(), true, null)));
                continue;
            }
            GatekeeperPolicies policies;
            try {
                policies = load(dir, test);
            } catch (IllegalArgumentException e) {
                if (test.invalid()) {
                    out.add(new CaseResult(test.name(), "(invalid constraint)", false, null));
                    continue;
                }
                String error = e.getMessage().replace("\n", " ");
                if (test.cases().isEmpty()) {
                    out.add(new CaseResult(test.name(), "(load)", false, error));
                }
                test.cases().forEach(c -> out.add(new CaseResult(test.name(), c.name(), false, error)));
                continue;
            }
            if (test.invalid()) {
                out.add(new CaseResult(test.name(), "(invalid constraint)", false,
                        "the constraint was accepted but the test says it is invalid"));
                continue;
            }
            for (GatorSuite.Case c : test.cases()) {
                if (c.skip()) {
                    out.add(new CaseResult(test.name(), c.name(), true, null));
                    continue;
                }
                long start = System.nanoTime();
                List<String> violations = new ArrayList<>();
                String error = check(policies, dir, c, violations);
                out.add(new CaseResult(test.name(), c.name(), false, error, List.copyOf(violations),
                        (System.nanoTime() - start) / 1e6));
            }
        }
        return out;
    }

    private GatekeeperPolicies load(Path dir, GatorSuite.Test test) {
        if (test.template().isEmpty() || test.constraint().isEmpty()) {
            throw new IllegalArgumentException("test '" + test.name() + "': template and constraint are required");
        }
        List<ConfigFiles.Document> docs = new ArrayList<>(ConfigFiles.read(List.of(dir.resolve(test.template()))));
        docs.addAll(ConfigFiles.read(List.of(dir.resolve(test.constraint()))));
        return GatekeeperPolicies.load(docs, cel, NamespaceOptions.config(Namespaces.Unknown.EMPTY));
    }

    /** The case's error, or null when every assertion holds. */
    private static String check(GatekeeperPolicies policies, Path dir, GatorSuite.Case c, List<String> violations) {
        if (c.object().isEmpty()) {
            return "must define object";
        }
        if (c.assertions().isEmpty()) {
            return "assertions must be non-empty";
        }
        List<String> messages;
        try {
            List<ConfigFiles.Document> objects = ConfigFiles.read(List.of(dir.resolve(c.object())));
            if (objects.size() != 1) {
                return c.object() + " defines " + objects.size() + " objects";
            }
            List<ConfigFiles.Document> inventory = new ArrayList<>();
            for (String p : c.inventory()) {
                inventory.addAll(ConfigFiles.read(List.of(dir.resolve(p))));
            }
            AdmissionRequest request = requestFor(objects.get(0).object());
            messages = policies.review(request, Inventory.of(inventory.stream().map(ConfigFiles.Document::object)
                    .toList())).stream().map(GatekeeperPolicies.Violation::message).toList();
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        violations.addAll(messages);
        for (GatorSuite.Assertion a : c.assertions()) {
            String error = assertion(a, messages);
            if (error != null) {
                return error;
            }
        }
        return null;
    }

    /** assertion.go Run: the count of matching violations against yes / no / n, in gator's words. */
    static String assertion(GatorSuite.Assertion a, List<String> messages) {
        Pattern regex;
        try {
            regex = a.message() == null ? null : Pattern.compile(a.message());
        } catch (PatternSyntaxException e) {
            return "invalid regex " + a.message() + ": " + e.getDescription();
        }
        long matching = messages.stream().filter(m -> regex == null || regex.matcher(m).find()).count();
        String containing = a.message() == null ? "" : " containing \"" + a.message() + "\"";
        String problem = switch (a.violations()) {
            case "yes" -> matching == 0 ? "got 0 violations" + containing + " but want at least 1" : null;
            case "no" -> matching > 0 ? "got " + matching + " violations" + containing + " but want none" : null;
            default -> matching != Long.parseLong(a.violations()) ? "got " + matching + " violations" + containing
                    + " but want exactly " + a.violations() : null;
        };
        return problem == null ? null : problem + ": got messages " + messages;
    }

    /**
     * The request for a case's object: an {@code admission.k8s.io} AdmissionReview's request (kind, namespace and name
     * from its object when it leaves them out, as gator's matching reads the object), else a CREATE of the object.
     */
    public static AdmissionRequest requestFor(ObjectNode object) {
        if ("AdmissionReview".equals(object.path("kind").asText())
                && object.path("apiVersion").asText().startsWith("admission.k8s.io/")) {
            JsonNode r = object.path("request");
            if (!r.isObject()) {
                throw new IllegalArgumentException("request did not actually pass in an AdmissionRequest");
            }
            ObjectNode o = r.path("object").isObject() ? (ObjectNode) r.path("object") : null;
            ObjectNode old = r.path("oldObject").isObject() ? (ObjectNode) r.path("oldObject") : null;
            if (o == null && old == null) {
                throw new IllegalArgumentException("AdmissionRequest does not contain an \"object\" or \"oldObject\""
                        + " to review");
            }
            ObjectNode subject = o != null ? o : old;
            Operation operation = Operation.valueOf(r.path("operation").asText("CREATE"));
            JsonNode u = r.path("userInfo");
            List<String> groups = new ArrayList<>();
            u.path("groups").forEach(g -> groups.add(g.asText()));
            UserInfo user = new UserInfo(u.path("username").asText(""), u.path("uid").asText(""), groups, Map.of());
            return request(subject, operation, user, o, old, r.path("namespace").asText(""), r.path("name").asText(""));
        }
        return request(object, Operation.CREATE, UserInfo.ANONYMOUS, object, null, "", "");
    }

    private static AdmissionRequest request(ObjectNode subject, Operation operation, UserInfo user, ObjectNode object,
            ObjectNode oldObject, String namespace, String name) {
        String apiVersion = subject.path("apiVersion").asText("");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        GroupVersionKind kind = GroupVersionKind.of(group, version, subject.path("kind").asText(""));
        GroupVersionResource resource = GroupVersionResource.of(group, version, "");
        KubeObject s = KubeObject.of(subject);
        return new AdmissionRequest("gator", kind, resource, "", kind, resource, "",
                name.isEmpty() ? s.name() : name, namespace.isEmpty() ? s.namespace() : namespace, operation, user,
                object == null ? null : KubeObject.of(object), oldObject == null ? null : KubeObject.of(oldObject),
                null, false);
    }

    /** True when {@code file} is a gator suite (for tools that take several kinds of test files). */
    public static boolean isSuiteFile(Path file) {
        try {
            List<ConfigFiles.Document> docs = ConfigFiles.read(List.of(file));
            return docs.size() == 1 && GatorSuite.isSuite(docs.get(0).object()) && Files.isRegularFile(file);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
