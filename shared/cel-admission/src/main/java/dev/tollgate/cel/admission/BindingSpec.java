package dev.tollgate.cel.admission;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.match.LabelSyntax;

/**
 * The fields every policy binding kind shares (ValidatingAdmissionPolicyBinding, MutatingAdmissionPolicyBinding):
 * name, policyName, paramRef and matchResources (absent: every request the policy matches).
 */
public record BindingSpec(String name, String policyName, Params.Ref paramRef, MatchResources matchResources) {

    /**
     * Reads the shared fields; problems are added to {@code errors}.
     *
     * @return the binding, or null when it is too broken to use
     */
    public static BindingSpec parse(ConfigFiles.Document doc, List<String> errors) {
        String at = doc.describe();
        int before = errors.size();
        String name = doc.name();
        if (!LabelSyntax.isDnsSubdomain(name)) {
            errors.add(at + ": metadata.name '" + name + "' must be a lowercase DNS subdomain");
        }
        JsonNode spec = doc.object().path("spec");
        if (!spec.isObject()) {
            errors.add(at + ": spec is required");
            return null;
        }
        String policyName = PolicySpec.requiredText(spec, "policyName", at + ": spec", errors);
        Params.Ref ref = null;
        try {
            ref = Params.Ref.parse(spec.get("paramRef"), "spec.paramRef");
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
        }
        MatchResources match = null;
        try {
            match = MatchResources.parse(spec.get("matchResources"), "spec.matchResources", false);
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
        }
        return errors.size() > before ? null : new BindingSpec(name, policyName, ref, match);
    }
}
