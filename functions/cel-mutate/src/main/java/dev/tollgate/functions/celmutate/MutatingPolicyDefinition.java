package dev.tollgate.functions.celmutate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.admission.BindingSpec;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.PolicySpec;

/**
 * A MutatingAdmissionPolicy (admissionregistration.k8s.io v1alpha1, v1beta1 or v1) as configured: the shared policy
 * fields plus mutations (JSONPatch or ApplyConfiguration, each a CEL expression) and reinvocationPolicy.
 */
public record MutatingPolicyDefinition(PolicySpec spec, List<Mutation> mutations, String reinvocationPolicy) {

    public static final Set<String> API_VERSIONS = Set.of("admissionregistration.k8s.io/v1alpha1",
            "admissionregistration.k8s.io/v1beta1", "admissionregistration.k8s.io/v1");
    public static final String KIND = "MutatingAdmissionPolicy";
    public static final String BINDING_KIND = "MutatingAdmissionPolicyBinding";

    public enum PatchType { JSONPatch, ApplyConfiguration }

    /** spec.mutations[i]: the patch type and its expression. */
    public record Mutation(PatchType patchType, String expression) {
    }

    /** A MutatingAdmissionPolicyBinding: the shared binding fields. */
    public record Binding(BindingSpec spec) {

        public String name() {
            return spec.name();
        }

        public static Binding parse(ConfigFiles.Document doc, List<String> errors) {
            BindingSpec spec = BindingSpec.parse(doc, errors);
            return spec == null ? null : new Binding(spec);
        }
    }

    public String name() {
        return spec.name();
    }

    /** Parses and validates a policy document; null (with errors added) when it is invalid. */
    public static MutatingPolicyDefinition parse(ConfigFiles.Document doc, List<String> errors) {
        int before = errors.size();
        PolicySpec spec = PolicySpec.parse(doc, errors);
        String at = doc.describe() + ": spec";
        JsonNode specNode = doc.object().path("spec");
        List<Mutation> mutations = new ArrayList<>();
        JsonNode ms = specNode.path("mutations");
        if (!ms.isArray() || ms.isEmpty()) {
            errors.add(at + ".mutations: required (at least one mutation)");
        }
        for (int i = 0; i < ms.size(); i++) {
            JsonNode m = ms.get(i);
            String here = at + ".mutations[" + i + "]";
            String type = m.path("patchType").asText("");
            PatchType patchType;
            try {
                patchType = PatchType.valueOf(type);
            } catch (IllegalArgumentException e) {
                errors.add(here + ".patchType: must be JSONPatch or ApplyConfiguration, got '" + type + "'");
                continue;
            }
            String field = patchType == PatchType.JSONPatch ? "jsonPatch" : "applyConfiguration";
            String other = patchType == PatchType.JSONPatch ? "applyConfiguration" : "jsonPatch";
            if (m.hasNonNull(other)) {
                errors.add(here + "." + other + ": must not be set when patchType is " + patchType);
            }
            String expression = PolicySpec.requiredText(m.path(field), "expression", here + "." + field, errors);
            mutations.add(new Mutation(patchType, expression));
        }
        String reinvocation = specNode.path("reinvocationPolicy").asText("Never");
        if (!reinvocation.equals("Never") && !reinvocation.equals("IfNeeded")) {
            errors.add(at + ".reinvocationPolicy: must be Never or IfNeeded, got '" + reinvocation + "'");
        }
        return spec == null || errors.size() > before ? null
                : new MutatingPolicyDefinition(spec, List.copyOf(mutations), reinvocation);
    }
}
