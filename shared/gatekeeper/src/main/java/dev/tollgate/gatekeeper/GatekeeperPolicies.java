package dev.tollgate.gatekeeper;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.EnforcedVerdict;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;
import dev.tollgate.cel.admission.BindingSpec;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.MatchResources;
import dev.tollgate.cel.admission.NamespaceLookupException;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.ParamSource;
import dev.tollgate.cel.admission.Params;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.cel.admission.PolicyDispatcher;
import dev.tollgate.cel.admission.PolicyHost;
import dev.tollgate.cel.admission.PolicyKind;
import dev.tollgate.cel.admission.PolicyExpressions;
import dev.tollgate.cel.admission.PolicyExpressions.Compiled;
import dev.tollgate.cel.admission.PolicySpec;
import dev.tollgate.cel.admission.PolicySpec.FailurePolicy;

/**
 * ConstraintTemplates and their Constraints, compiled once and evaluated per request as Gatekeeper's admission webhook
 * does with its k8scel driver (gatekeeper pkg/drivers/k8scel/driver.go Query; pkg/webhook/policy.go): each
 * Constraint whose match selects the request is evaluated with {@code params} (the Constraint),
 * {@code variables.anyObject} and {@code variables.params} (its spec.parameters) before the source's own variables;
 * matchConditions skip; every failed validation is one violation, reported as {@code [<constraint>] <message>}; an
 * evaluation error is a violation under failurePolicy Fail and nothing under Ignore. Loading, matching (the
 * Constraints indexed by their kinds), namespaces and the inventory's sources are the {@link PolicyHost}'s; this
 * class is the kind (how templates and Constraints compile) and what a match runs. Thread-safe.
 */
public final class GatekeeperPolicies extends PolicyHost<GatekeeperPolicies.Bound, Constraint> {

    /** The CEL variable of a referential template's inventory. */
    public static final String INVENTORY_VARIABLE = "inventory";

    /** One violation of one Constraint. */
    public record Violation(Constraint constraint, String message) {

        /** As Gatekeeper's webhook words it: {@code [<constraint name>] <message>}. */
        public String line() {
            return "[" + constraint.name() + "] " + message;
        }
    }

    /** A template's expressions, compiled against Gatekeeper's variables and the source's own. */
    private static final class CompiledTemplate {
        final ConstraintTemplate template;
        final PolicyExpressions expressions;
        final List<Compiled> validations = new ArrayList<>();
        final List<Compiled> messages = new ArrayList<>();
        final boolean usesNamespaceObject;
        final boolean readsInventory;

        CompiledTemplate(KubeCel cel, ConstraintTemplate template) {
            this.template = template;
            CelSource source = template.source();
            this.readsInventory = !source.inventory().isEmpty();
            List<NamedExpression> variables = new ArrayList<>();
            // transform/cel_snippets.go BindObjectV1Beta1 and BindParamsV1Beta1: the object under review (oldObject
            // on DELETE, whose object is null) and the Constraint's spec.parameters (null when absent).
            variables.add(new NamedExpression(CelSource.OBJECT_VARIABLE,
                    "request.operation == \"DELETE\" && object == null ? oldObject : object"));
            variables.add(new NamedExpression(CelSource.PARAMS_VARIABLE,
                    "has(params.spec) && has(params.spec.parameters) ? params.spec.parameters : null"));
            variables.addAll(source.variables());
            PolicySpec spec = new PolicySpec(template.name(), new Params.Kind(Constraint.GROUP + "/v1beta1",
                    template.kind()), null, source.matchConditions(), variables, source.failurePolicy());
            this.expressions = new PolicyExpressions(cel, spec);
            for (int i = 0; i < source.validations().size(); i++) {
                CelSource.Validation v = source.validations().get(i);
                if (v.listsViolations()) {
                    validations.add(expressions.compile(v.violationsExpression(), ResultType.ANY,
                            "validations[" + i + "].violationsExpression"));
                    messages.add(null);
                    continue;
                }
                validations.add(expressions.compile(v.expression(), ResultType.BOOL,
                        "validations[" + i + "].expression"));
                messages.add(v.messageExpression().isBlank() ? null : expressions.compile(v.messageExpression(),
                        ResultType.STRING, "validations[" + i + "].messageExpression"));
            }
            this.usesNamespaceObject = Stream.concat(source.variables().stream(), source.matchConditions().stream())
                    .map(NamedExpression::expression)
                    .anyMatch(e -> e.contains("namespaceObject"))
                    || source.validations().stream().anyMatch(v -> (v.expression() + v.messageExpression()
                            + v.violationsExpression()).contains("namespaceObject"));
        }
    }

    /**
     * A Constraint with its template compiled: one policy of the host, which binds itself (no binding document, no
     * paramRef: the Constraint is {@code params}), selected by its {@code match} (indexed by its kinds).
     */
    record Bound(Constraint constraint, CompiledTemplate template) {
    }

    /** Templates and Constraints as the policy host serves them. */
    private static final PolicyKind<Bound, Constraint> KIND = new PolicyKind<>() {
        @Override
        public PolicyKind.Compiled<Bound, Constraint> compile(List<ConfigFiles.Document> documents, KubeCel cel,
                NamespaceOptions namespaces) {
            return compileTemplates(documents, cel, namespaces);
        }

        @Override
        public PolicyDispatcher.Policy policy(Bound bound) {
            return new PolicyDispatcher.Policy(key(bound.constraint()), bound.constraint().match(), null);
        }

        @Override
        public BindingSpec binding(Constraint constraint) {
            return new BindingSpec(constraint.name(), key(constraint), null, MatchResources.EVERYTHING);
        }

        // As Gatekeeper reports them: by Constraint kind, then name.
        @Override
        public Comparator<Bound> order() {
            return Comparator.comparing((Bound b) -> b.constraint().kind()).thenComparing(b -> b.constraint().name());
        }
    };

    /** The name the host knows a Constraint by: unique (two kinds may have Constraints of the same name). */
    private static String key(Constraint constraint) {
        return constraint.kind() + "/" + constraint.name() + " (" + constraint.source() + ")";
    }

    private final boolean empty;

    private GatekeeperPolicies(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces) {
        super(documents, cel, namespaces, KIND);
        this.empty = documents.stream().noneMatch(GatekeeperPolicies::isGatekeeper);
    }

    /** True for a document this class reads: a ConstraintTemplate or a Constraint. */
    public static boolean isGatekeeper(ConfigFiles.Document d) {
        return ConstraintTemplate.isTemplate(d) || Constraint.isConstraint(d);
    }

    /**
     * Reads, checks and compiles the templates and constraints among {@code documents} ({@code v1 Namespace}s among
     * them serve namespaceSelector and namespaceObject, as for ValidatingAdmissionPolicies; other documents are
     * someone else's and ignored).
     *
     * @throws PolicyConfig.InvalidConfigException listing every problem: an invalid template or constraint, a template
     *                                             nothing here can run, a constraint of a kind no template defines
     */
    public static GatekeeperPolicies load(List<ConfigFiles.Document> documents, KubeCel cel,
            NamespaceOptions namespaceOptions) {
        return new GatekeeperPolicies(documents, cel, namespaceOptions);
    }

    private static PolicyKind.Compiled<Bound, Constraint> compileTemplates(List<ConfigFiles.Document> documents,
            KubeCel cel, NamespaceOptions namespaceOptions) {
        List<String> errors = new ArrayList<>();
        List<ConstraintTemplate> templates = new ArrayList<>();
        List<Constraint> constraints = new ArrayList<>();
        Map<String, String> kinds = new LinkedHashMap<>();
        for (ConfigFiles.Document d : documents) {
            if (ConstraintTemplate.isTemplate(d)) {
                ConstraintTemplate t = ConstraintTemplate.parse(d, errors);
                if (t != null && kinds.putIfAbsent(t.kind(), d.describe()) != null) {
                    errors.add(d.describe() + ": kind " + t.kind() + " is already defined by " + kinds.get(t.kind()));
                } else if (t != null) {
                    templates.add(t);
                }
            } else if (Constraint.isConstraint(d)) {
                Constraint c = Constraint.parse(d, errors);
                if (c != null) {
                    constraints.add(c);
                }
            }
        }
        Map<String, ConstraintTemplate> byKind = new LinkedHashMap<>();
        templates.forEach(t -> byKind.put(t.kind(), t));
        constraints.replaceAll(c -> byKind.containsKey(c.kind()) ? c.withDefaults(byKind.get(c.kind())
                .parametersSchema()) : c);
        for (Constraint c : constraints) {
            if (!kinds.containsKey(c.kind()) && errors.stream().noneMatch(e -> e.contains("kind " + c.kind() + " "))) {
                errors.add(c.kind() + " '" + c.name() + "' (" + c.source() + "): no ConstraintTemplate defines kind "
                        + c.kind());
            }
        }
        // The referential policies' inventory is read as params are: objects of those kinds in the files, else the
        // calling cluster's.
        Set<Params.Kind> inventoryKinds = new LinkedHashSet<>();
        templates.forEach(t -> inventoryKinds.addAll(t.source().inventory()));
        List<String> warnings = new ArrayList<>();
        for (ConstraintTemplate t : templates) {
            if (constraints.stream().noneMatch(c -> c.kind().equals(t.kind()))) {
                warnings.add(ConstraintTemplate.KIND + " '" + t.name() + "' has no Constraint of kind " + t.kind()
                        + ": it is not enforced");
            }
        }
        PolicyConfig<Bound, Constraint> config = PolicyConfig.of(List.of(), constraints, warnings, documents,
                inventoryKinds, namespaceOptions, errors);
        if (!errors.isEmpty()) {
            throw new PolicyConfig.InvalidConfigException(errors);
        }
        KubeCel withInventory = templates.stream().anyMatch(t -> !t.source().inventory().isEmpty())
                ? cel.withAdmissionExtras(INVENTORY_VARIABLE) : cel;
        Map<String, CompiledTemplate> compiled = new LinkedHashMap<>();
        List<String> compileErrors = new ArrayList<>();
        for (ConstraintTemplate t : templates) {
            CompiledTemplate c = new CompiledTemplate(t.source().inventory().isEmpty() ? cel : withInventory, t);
            c.expressions.compileErrors().forEach(e -> compileErrors.add(ConstraintTemplate.KIND + " '" + t.name()
                    + "': " + e));
            compiled.put(t.kind(), c);
        }
        List<Bound> bound = constraints.stream().map(c -> new Bound(c, compiled.get(c.kind()))).toList();
        long library = templates.stream().filter(t -> t.origin().startsWith("Tollgate")).count();
        String summary = templates.size() + " ConstraintTemplates" + (library == 0 ? "" : " (" + library
                + " on Tollgate's library)") + ", " + constraints.size() + " Constraints";
        return new PolicyKind.Compiled<>(config.withPolicies(bound), compileErrors, summary);
    }

    public boolean isEmpty() {
        return empty;
    }

    /**
     * Every violation of every Constraint that selects the request, in Constraint kind and name order.
     *
     * @throws NamespaceLookupException when a namespaceSelector or namespaceObject needs a namespace that cannot be
     *                                  read
     */
    public List<Violation> review(AdmissionRequest request) {
        return review(request, null);
    }

    /**
     * As {@link #review(AdmissionRequest)}, with the other objects referential policies read given (gator's case
     * inventory) instead of read from the files or the calling cluster.
     */
    public List<Violation> review(AdmissionRequest request, Inventory given) {
        List<Violation> out = new ArrayList<>();
        dispatch(request, new PolicyDispatcher.Handler<>() {
            // Unreachable: a Constraint has no paramKind and no matchResources of its own.
            @Override
            public void configError(Bound bound, Constraint constraint, String message) {
                error(bound.template().template.source().failurePolicy(), bound.constraint(), message, out);
            }

            // A namespace its match cannot read fails the whole request (validate), not one Constraint.
            @Override
            public void policyError(Bound bound, RuntimeException error) {
                throw error;
            }

            @Override
            public void evaluate(Bound bound, Constraint constraint, ObjectNode param) {
                CompiledTemplate template = bound.template();
                Inventory inventory = Inventory.EMPTY;
                if (template.readsInventory) {
                    try {
                        inventory = given != null ? given : inventory(template, request.cluster());
                    } catch (Params.ParamException e) {
                        error(template.template.source().failurePolicy(), constraint, "failed to read the inventory: "
                                + e.getMessage(), out);
                        return;
                    }
                }
                GatekeeperPolicies.evaluate(template, constraint, request, namespaces(request), inventory, out);
            }
        });
        return out;
    }

    /** The objects of the kinds a referential template reads, from the files or the calling cluster. */
    private Inventory inventory(CompiledTemplate template, String cluster) {
        List<ObjectNode> objects = new ArrayList<>();
        ParamSource source = params(cluster);
        for (Params.Kind kind : template.template.source().inventory()) {
            objects.addAll(source.everything(kind));
        }
        return Inventory.of(objects);
    }

    /**
     * The answer Gatekeeper's webhook gives (pkg/webhook/policy.go): violations of {@code deny} Constraints deny with
     * 403 Forbidden, their lines joined by new lines; those of {@code warn} Constraints are warnings; those of
     * {@code dryrun} Constraints are recorded in the {@value EnforcedVerdict#WOULD_DENY} audit annotation, as
     * Tollgate's audit mode records a denial. A namespace that cannot be read fails the request, as for a
     * ValidatingAdmissionPolicy's namespaceObject.
     */
    public Verdict validate(AdmissionRequest request) {
        List<Violation> violations;
        try {
            violations = review(request);
        } catch (NamespaceLookupException e) {
            return e.denial();
        }
        List<String> deny = new ArrayList<>();
        List<String> warn = new ArrayList<>();
        List<String> dryrun = new ArrayList<>();
        for (Violation v : violations) {
            for (Constraint.Action a : v.constraint().actions()) {
                switch (a) {
                    case DENY -> deny.add(v.line());
                    case WARN -> warn.add(v.line());
                    case DRYRUN -> dryrun.add(v.line());
                }
            }
        }
        Verdict verdict = deny.isEmpty() ? Verdict.allow() : Verdict.deny(403, "Forbidden", String.join("\n", deny));
        verdict = verdict.withWarnings(warn);
        if (!dryrun.isEmpty()) {
            String value = String.join("\n", dryrun);
            verdict = verdict.withAuditAnnotation(EnforcedVerdict.WOULD_DENY, value.length()
                    > EnforcedVerdict.MAX_ANNOTATION_VALUE_LENGTH
                            ? value.substring(0, EnforcedVerdict.MAX_ANNOTATION_VALUE_LENGTH) : value);
        }
        return verdict;
    }

    private static void evaluate(CompiledTemplate template, Constraint constraint, AdmissionRequest request,
            Namespaces ns, Inventory inventory, List<Violation> out) {
        PolicyExpressions exprs = template.expressions;
        FailurePolicy failurePolicy = template.template.source().failurePolicy();
        if (exprs.variablesError() != null) {
            error(failurePolicy, constraint, exprs.variablesError(), out);
            return;
        }
        ObjectNode namespaceObject = template.usesNamespaceObject ? ns.namespaceObject(request) : null;
        AdmissionInput input = AdmissionInput.of(request).withParams(constraint.object())
                .withNamespaceObject(namespaceObject);
        Evaluation evaluation = exprs.set().newEvaluation(template.readsInventory
                ? input.withExtra(INVENTORY_VARIABLE, inventory.tree()) : input);
        PolicyExpressions.ConditionResult match = exprs.matchConditions(evaluation);
        if (match.failed()) {
            error(failurePolicy, constraint, match.error(), out);
            return;
        }
        if (!match.matches()) {
            return;
        }
        List<CelSource.Validation> validations = template.template.source().validations();
        for (int i = 0; i < validations.size(); i++) {
            Compiled rule = template.validations.get(i);
            CelSource.Validation v = validations.get(i);
            if (rule.failed()) {
                error(failurePolicy, constraint, rule.error(), out);
                continue;
            }
            try {
                if (v.listsViolations()) {
                    listed(evaluation.evaluate(rule.expression()), v, constraint, out);
                } else if (!evaluation.evaluateBool(rule.expression())) {
                    out.add(new Violation(constraint, PolicyExpressions.failureMessage(v.expression(), v.message(),
                            template.messages.get(i), evaluation)));
                }
            } catch (CelEvaluationError e) {
                if (e.kind() == CelEvaluationError.Kind.COST_LIMIT) {
                    error(failurePolicy, constraint, "validation failed due to running out of cost budget, no"
                            + " further validation rules will be run: " + e.getMessage(), out);
                    return;
                }
                error(failurePolicy, constraint, PolicyExpressions.describe(e), out);
            }
        }
    }

    /** A violationsExpression's result: each string one violation. */
    private static void listed(Object value, CelSource.Validation v, Constraint constraint, List<Violation> out)
            throws CelEvaluationError {
        if (!(value instanceof List<?> list)) {
            throw new CelEvaluationError(CelEvaluationError.Kind.RUNTIME, v.violationsExpression(),
                    "violationsExpression must give a list of strings, got " + typeName(value), null);
        }
        for (Object item : list) {
            if (!(item instanceof String s)) {
                throw new CelEvaluationError(CelEvaluationError.Kind.RUNTIME, v.violationsExpression(),
                        "violationsExpression must give a list of strings, got an item of type " + typeName(item),
                        null);
            }
            out.add(new Violation(constraint, s));
        }
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }

    /** driver.go: an error under Fail is a deny decision carrying the error; under Ignore nothing. */
    private static void error(FailurePolicy failurePolicy, Constraint constraint, String message,
            List<Violation> out) {
        if (failurePolicy == FailurePolicy.Fail) {
            out.add(new Violation(constraint, message));
        }
    }
}
