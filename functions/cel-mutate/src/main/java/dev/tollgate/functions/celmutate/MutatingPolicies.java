package dev.tollgate.functions.celmutate;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.JsonPatches;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.CelValues;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;
import dev.tollgate.functions.celmutate.MutatingPolicyDefinition.Binding;
import dev.tollgate.functions.celmutate.MutatingPolicyDefinition.Mutation;
import dev.tollgate.functions.celmutate.MutatingPolicyDefinition.PatchType;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceLookupException;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.cel.admission.PolicyDispatcher;
import dev.tollgate.cel.admission.PolicyExpressions;
import dev.tollgate.cel.admission.PolicyHost;
import dev.tollgate.cel.admission.PolicyKind;
import dev.tollgate.cel.admission.StructLiterals;
import dev.tollgate.cel.admission.PolicyExpressions.Compiled;
import dev.tollgate.cel.admission.PolicySpec.FailurePolicy;

/**
 * A set of MutatingAdmissionPolicies and their bindings, compiled once and applied per request: matching, params
 * and matchConditions as for validating policies, then each mutation in order, each seeing the object as the
 * mutations before it left it ({@code object} is rebound, variables are evaluated afresh). A policy binding's
 * mutations apply all or nothing: an error discards that binding's changes and, under failurePolicy Fail, denies
 * the request. Loading, matching, params and namespaces are the {@link PolicyHost}'s; this class is the kind
 * ({@link #KIND}: how a definition compiles) and what a match runs (the mutations). Thread-safe.
 */
public final class MutatingPolicies extends PolicyHost<MutatingPolicies.CompiledPolicy, Binding> {

    static final PolicyConfig.Kinds<MutatingPolicyDefinition, Binding> KINDS = new PolicyConfig.Kinds<>(
            MutatingPolicyDefinition.API_VERSIONS, MutatingPolicyDefinition.KIND,
            MutatingPolicyDefinition.BINDING_KIND, MutatingPolicyDefinition::parse, Binding::parse,
            MutatingPolicyDefinition::spec, Binding::spec);

    /** This kind as the policy host serves it: each definition compiled, dispatched by its spec. */
    static final PolicyKind<CompiledPolicy, Binding> KIND = PolicyKind.of(KINDS, CompiledPolicy::new,
            CompiledPolicy::compileErrors, c -> c.definition.spec(), "MutatingAdmissionPolicies");

    /** One policy with everything compiled. */
    static final class CompiledPolicy {
        final MutatingPolicyDefinition definition;
        final PolicyExpressions expressions;
        final List<Compiled> mutations = new ArrayList<>();
        private final List<String> rewriteErrors = new ArrayList<>();
        final boolean usesNamespaceObject;

        CompiledPolicy(KubeCel cel, MutatingPolicyDefinition definition) {
            this.definition = definition;
            this.expressions = new PolicyExpressions(cel, definition.spec());
            List<Mutation> ms = definition.mutations();
            for (int i = 0; i < ms.size(); i++) {
                String what = "mutations[" + i + "]." + (ms.get(i).patchType() == PatchType.JSONPatch ? "jsonPatch"
                        : "applyConfiguration") + ".expression";
                StructLiterals.Rewritten rewritten;
                try {
                    rewritten = StructLiterals.rewrite(ms.get(i).expression());
                } catch (StructLiterals.RewriteException e) {
                    String error = "compilation failed: " + e.getMessage();
                    mutations.add(new Compiled(null, PolicyExpressions.FILTER_COMPILATION_ERROR + error, error));
                    rewriteErrors.add("compilation error: " + what + ": " + error);
                    continue;
                }
                mutations.add(expressions.compile(rewritten.text(), ResultType.ANY, what, rewritten::remap));
            }
            this.usesNamespaceObject = Stream.concat(Stream.concat(
                    definition.spec().variables().stream().map(NamedExpression::expression),
                    definition.spec().matchConditions().stream().map(NamedExpression::expression)),
                    ms.stream().map(Mutation::expression)).anyMatch(s -> s.contains("namespaceObject"));
        }

        List<String> compileErrors() {
            List<String> all = new ArrayList<>(expressions.compileErrors());
            all.addAll(rewriteErrors);
            return all;
        }

        String name() {
            return definition.name();
        }

        FailurePolicy failurePolicy() {
            return definition.spec().failurePolicy();
        }
    }

    /** A mutation that could not be computed or applied. */
    private static final class MutationFailed extends Exception {
        MutationFailed(String message) {
            super(message, null, false, false);
        }
    }

    private MutatingPolicies(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces) {
        super(documents, cel, namespaces, KIND);
    }

    /**
     * Parses, validates and compiles the configuration documents.
     *
     * @throws PolicyConfig.InvalidConfigException for documents the API server would refuse, or that are not used
     */
    public static MutatingPolicies load(List<ConfigFiles.Document> documents, KubeCel cel,
            Namespaces.Unknown unknownNamespaces) {
        return load(documents, cel, NamespaceOptions.config(unknownNamespaces));
    }

    /** As {@link #load(List, KubeCel, Namespaces.Unknown)}, with namespaces from where the options say. */
    public static MutatingPolicies load(List<ConfigFiles.Document> documents, KubeCel cel,
            NamespaceOptions namespaces) {
        return new MutatingPolicies(documents, cel, namespaces);
    }

    /**
     * Applies every matching policy binding to {@code object} (the request's object, a private copy) in place.
     *
     * @return allow, or a denial naming the first policy binding that failed under failurePolicy Fail, or the
     *         namespace lookup's error: a namespaceObject that cannot be read fails the request whatever the
     *         failurePolicy, its Status as is and anything else as NotFound (k8s.io/apiserver
     *         pkg/admission/plugin/policy/mutating/dispatcher.go, dispatchInvocations)
     */
    public Verdict mutate(AdmissionRequest request, ObjectNode object) {
        if (object == null) {
            return Verdict.allow(); // DELETE and CONNECT carry no object to mutate
        }
        try {
            return dispatch(request, object);
        } catch (NamespaceLookupException e) {
            return e.hasStatus() ? e.denial() : NamespaceLookupException.notFound(request.namespace(), "").denial();
        }
    }

    private Verdict dispatch(AdmissionRequest request, ObjectNode object) {
        // No copy: apply() leaves the object it is given as it was and returns a new one.
        ObjectNode[] current = { object };
        String[] denial = { null };
        dispatch(request, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(CompiledPolicy policy, Binding binding, String message) {
                fail(policy, binding, message);
            }

            @Override
            public void evaluate(CompiledPolicy policy, Binding binding, ObjectNode param) {
                if (denial[0] != null) {
                    return;
                }
                try {
                    ObjectNode result = apply(policy, param, request, current[0]);
                    if (result != null) {
                        current[0] = result;
                    }
                } catch (MutationFailed e) {
                    fail(policy, binding, e.getMessage());
                }
            }

            private void fail(CompiledPolicy policy, Binding binding, String message) {
                if (policy.failurePolicy() == FailurePolicy.Fail && denial[0] == null) {
                    denial[0] = "MutatingAdmissionPolicy '" + policy.name() + "'"
                            + (binding == null ? "" : " with binding '" + binding.name() + "'")
                            + " denied request: " + message;
                }
            }
        });
        if (denial[0] != null) {
            return Verdict.deny(422, "Invalid", denial[0]);
        }
        if (current[0] != object) {
            object.removeAll();
            object.setAll(current[0]);
        }
        return Verdict.allow();
    }

    /**
     * One policy binding's mutations on a copy of {@code object}.
     *
     * @return the mutated copy, or null when the matchConditions do not match
     */
    private ObjectNode apply(CompiledPolicy policy, ObjectNode param, AdmissionRequest request, ObjectNode object)
            throws MutationFailed {
        PolicyExpressions exprs = policy.expressions;
        if (exprs.variablesError() != null) {
            throw new MutationFailed(exprs.variablesError());
        }
        // Looked up only for policies that use it; a failure propagates to mutate().
        ObjectNode namespaceObject = policy.usesNamespaceObject
                ? namespaces(request).namespaceObject(request) : null;
        AdmissionInput input = AdmissionInput.of(withObject(request, object)).withParams(param)
                .withNamespaceObject(namespaceObject);
        PolicyExpressions.ConditionResult match = exprs.matchConditions(exprs.set().newEvaluation(input));
        if (match.failed()) {
            throw new MutationFailed(match.error());
        }
        if (!match.matches()) {
            return null;
        }
        // No copy: each applyOne returns a new object, so a failing mutation leaves nothing half-applied.
        ObjectNode working = object;
        List<Mutation> mutations = policy.definition.mutations();
        for (int i = 0; i < mutations.size(); i++) {
            Compiled c = policy.mutations.get(i);
            if (c.failed()) {
                // patch/json_patch.go and patch/smd.go Patch: the compile errors joined, with no words around them
                throw new MutationFailed(c.compileError());
            }
            Evaluation evaluation = exprs.set().newEvaluation(AdmissionInput.of(withObject(request, working))
                    .withParams(param).withNamespaceObject(namespaceObject));
            JsonNode result;
            try {
                result = copyWithPlainNumbers(CelValues.toJson(evaluation.evaluate(c.expression())));
            } catch (CelEvaluationError e) {
                throw new MutationFailed(PolicyExpressions.describe(e));
            } catch (RuntimeException e) {
                throw new MutationFailed("mutations[" + i + "]: result cannot be read as JSON: " + e.getMessage());
            }
            working = applyOne(mutations.get(i).patchType(), result, working, "mutations[" + i + "]");
        }
        return working;
    }

    /**
     * One mutation's result applied to {@code object}.
     *
     * @return a new object sharing no nodes with {@code object}, which is left as it was (callers rely on this instead
     *         of copying)
     */
    static ObjectNode applyOne(PatchType type, JsonNode result, ObjectNode object, String at) throws MutationFailed {
        if (type == PatchType.JSONPatch) {
            if (!result.isArray()) {
                throw new MutationFailed(at + ": a JSONPatch expression must produce a list of JSONPatch, got "
                        + result.getNodeType().name().toLowerCase());
            }
            for (int i = 0; i < result.size(); i++) {
                JsonNode op = result.get(i);
                if (!op.isObject() || !op.path("op").isTextual() || !op.path("path").isTextual()) {
                    throw new MutationFailed(at + "[" + i + "]: each JSONPatch needs op and path strings");
                }
            }
            JsonNode patched;
            try {
                patched = JsonPatches.apply(result, object);
            } catch (IllegalArgumentException e) {
                throw new MutationFailed(at + ": JSON patch failed: " + e.getMessage());
            }
            if (!patched.isObject()) {
                throw new MutationFailed(at + ": the patch replaced the object with a non-object");
            }
            requireSameIdentity(object, (ObjectNode) patched, at);
            return (ObjectNode) patched;
        }
        if (!result.isObject()) {
            throw new MutationFailed(at + ": an ApplyConfiguration expression must produce an Object, got "
                    + result.getNodeType().name().toLowerCase());
        }
        ObjectNode merged = object.deepCopy();
        try {
            ApplyMerge.merge(merged, (ObjectNode) result);
        } catch (ApplyMerge.MergeException e) {
            throw new MutationFailed(at + ": " + e.getMessage());
        }
        requireSameIdentity(object, merged, at);
        return merged;
    }

    // A mutation may not turn the object into another kind of object.
    private static void requireSameIdentity(ObjectNode before, ObjectNode after, String at) throws MutationFailed {
        for (String f : new String[] { "apiVersion", "kind" }) {
            if (!before.path(f).equals(after.path(f))) {
                throw new MutationFailed(at + ": a mutation may not change " + f);
            }
        }
    }

    /**
     * A fresh copy of a CEL result (never sharing nodes with the request's objects), with integers in the form the
     * request's JSON parser gives them (int when it fits), so a value a mutation sets again compares equal and
     * yields no patch: CEL integers are all 64-bit.
     */
    static JsonNode copyWithPlainNumbers(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            node.fields().forEachRemaining(e -> out.set(e.getKey(), copyWithPlainNumbers(e.getValue())));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode(node.size());
            node.forEach(n -> out.add(copyWithPlainNumbers(n)));
            return out;
        }
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            return IntNode.valueOf(node.intValue());
        }
        return node.deepCopy();
    }

    private static AdmissionRequest withObject(AdmissionRequest r, ObjectNode object) {
        return new AdmissionRequest(r.uid(), r.kind(), r.resource(), r.subResource(), r.requestKind(),
                r.requestResource(), r.requestSubResource(), r.name(), r.namespace(), r.operation(), r.userInfo(),
                KubeObject.of(object), r.oldObject(), r.options(), r.dryRun(), r.cluster());
    }
}
