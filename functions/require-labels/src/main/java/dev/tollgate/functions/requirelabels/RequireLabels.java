package dev.tollgate.functions.requirelabels;

import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * Denies CREATE and UPDATE of objects missing any required label key (403, listing every missing key) and warns
 * about missing recommended keys. Which resources it sees is decided by its registration (webhook.yaml).
 */
@ApplicationScoped
public class RequireLabels implements ValidatingPolicy {

    private final List<String> required;
    private final List<String> recommended;

    @Inject
    public RequireLabels(
            @ConfigProperty(name = "tollgate.require-labels.required") List<String> required,
            @ConfigProperty(name = "tollgate.require-labels.recommended", defaultValue = " ") List<String> recommended) {
        this.required = clean(required);
        this.recommended = clean(recommended);
        if (this.required.isEmpty() && this.recommended.isEmpty()) {
            throw new IllegalArgumentException("require-labels: set tollgate.require-labels.required "
                    + "(TOLLGATE_REQUIRE_LABELS_REQUIRED) and/or tollgate.require-labels.recommended");
        }
        for (String key : concat(this.required, this.recommended)) {
            if (!LabelSyntax.isQualifiedName(key)) {
                throw new IllegalArgumentException("require-labels: '" + key + "' is not a valid label key");
            }
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        var all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Override
    public Verdict validate(AdmissionRequest request) {
        if (request.operation() != Operation.CREATE && request.operation() != Operation.UPDATE
                || request.object() == null || !request.isMainResource()) {
            return Verdict.allow();
        }
        KubeObject object = request.object();
        Map<String, String> labels = object.labels();
        List<String> missing = missing(required, labels);
        if (!missing.isEmpty()) {
            return Verdict.deny(object.kind() + " " + describe(object) + " is missing required label"
                    + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing));
        }
        Verdict verdict = Verdict.allow();
        List<String> missingRecommended = missing(recommended, labels);
        if (!missingRecommended.isEmpty()) {
            verdict = verdict.withWarning(object.kind() + " " + describe(object) + " is missing recommended label"
                    + (missingRecommended.size() == 1 ? " " : "s ") + String.join(", ", missingRecommended));
        }
        return verdict;
    }

    private static List<String> missing(List<String> keys, Map<String, String> labels) {
        return keys.stream().filter(k -> !labels.containsKey(k)).toList();
    }

    private static String describe(KubeObject object) {
        String name = object.name().isEmpty() ? object.generateName() + "*" : object.name();
        return "\"" + name + "\"";
    }

    /** Config lists may hold blanks (an empty default); keep only real keys, in order, once each. */
    private static List<String> clean(List<String> keys) {
        return keys == null ? List.of() : keys.stream().map(String::strip).filter(k -> !k.isEmpty()).distinct()
                .toList();
    }
}
