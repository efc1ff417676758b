package dev.tollgate.gatekeeper;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.admission.ConfigFiles;

/**
 * A {@code templates.gatekeeper.sh} ConstraintTemplate and the CEL it runs on: its own {@code K8sNativeValidation}
 * source when it has one (as Gatekeeper's k8scel driver runs it), else Tollgate's library policy for its kind (a
 * Rego-only template of the gatekeeper-library), else none: such a template is refused in one line that names it.
 *
 * @param name   metadata.name, which Gatekeeper requires to be the kind in lower case
 * @param kind   the constraint kind it defines (spec.crd.spec.names.kind)
 * @param source the CEL it runs on
 * @param origin where that CEL comes from, for logs and reports
 * @param parametersSchema spec.crd.spec.validation.openAPIV3Schema: the schema of a Constraint's spec.parameters (its
 *                         defaults are applied, as the API server applies a CRD's), or a missing node
 */
public record ConstraintTemplate(String name, String kind, CelSource source, String origin,
        JsonNode parametersSchema) {

    public static final String GROUP = "templates.gatekeeper.sh";
    public static final Set<String> API_VERSIONS = Set.of(GROUP + "/v1", GROUP + "/v1beta1", GROUP + "/v1alpha1");
    public static final String KIND = "ConstraintTemplate";
    /** The one target Gatekeeper's admission webhook serves (gatekeeper pkg/target/target.go Name). */
    public static final String TARGET = "admission.k8s.gatekeeper.sh";
    /** The engine name of a CEL source (gatekeeper pkg/drivers/k8scel/schema/schema.go Name). */
    public static final String CEL_ENGINE = "K8sNativeValidation";

    public static boolean isTemplate(ConfigFiles.Document d) {
        return API_VERSIONS.contains(d.apiVersion()) && KIND.equals(d.kind());
    }

    /**
     * Reads a template; problems are added to {@code errors}, one line each naming the document.
     *
     * @return the template, or null when it is invalid or nothing can run it
     */
    public static ConstraintTemplate parse(ConfigFiles.Document doc, List<String> errors) {
        return parse(doc, errors, TollgateLibrary.builtIn());
    }

    static ConstraintTemplate parse(ConfigFiles.Document doc, List<String> errors, TollgateLibrary library) {
        String at = doc.describe();
        int before = errors.size();
        String kind = doc.object().path("spec").path("crd").path("spec").path("names").path("kind").asText("");
        if (kind.isEmpty()) {
            errors.add(at + ": spec.crd.spec.names.kind is required");
            return null;
        }
        // Gatekeeper's webhook refuses a template whose name is not its kind in lower case
        // (frameworks constraint/pkg/client/crds ValidateTargets / gatekeeper pkg/webhook/policy.go validateTemplate).
        if (!doc.name().equals(kind.toLowerCase(Locale.ROOT))) {
            errors.add(at + ": metadata.name must be the kind in lower case, '" + kind.toLowerCase(Locale.ROOT) + "'");
        }
        JsonNode schema = doc.object().path("spec").path("crd").path("spec").path("validation").path("openAPIV3Schema");
        JsonNode targets = doc.object().path("spec").path("targets");
        if (!targets.isArray() || targets.size() != 1) {
            errors.add(at + ": spec.targets must hold exactly one target, " + TARGET);
            return null;
        }
        JsonNode target = targets.get(0);
        if (!TARGET.equals(target.path("target").asText())) {
            errors.add(at + ": spec.targets[0].target must be " + TARGET + ", got '" + target.path("target").asText()
                    + "'");
            return null;
        }
        JsonNode cel = null;
        int celIndex = -1;
        JsonNode code = target.path("code");
        for (int i = 0; i < code.size(); i++) {
            if (CEL_ENGINE.equals(code.get(i).path("engine").asText())) {
                cel = code.get(i).path("source");
                celIndex = i;
                break;
            }
        }
        if (cel != null) {
            CelSource source = CelSource.parse(cel, at + ": spec.targets[0].code[" + celIndex + "].source", false,
                    errors);
            return errors.size() > before || source == null ? null
                    : new ConstraintTemplate(doc.name(), kind, source, "its own " + CEL_ENGINE + " source", schema);
        }
        TollgateLibrary.Entry entry = library.find(kind);
        if (entry == null) {
            errors.add(at + ": kind " + kind + " has no " + CEL_ENGINE + " (CEL) source and Tollgate's library has no"
                    + " policy for it; Rego is not run here: add a " + CEL_ENGINE + " source to the template");
            return null;
        }
        return errors.size() > before ? null
                : new ConstraintTemplate(doc.name(), kind, entry.source(), "Tollgate's library (" + entry.file() + ")",
                        schema);
    }
}
