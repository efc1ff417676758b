package dev.tollgate.simulator.policytest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.KubernetesSchemas;
import dev.tollgate.cel.admission.OpenApiSchemas;
import dev.tollgate.cel.admission.PolicyTypeChecker;
import dev.tollgate.cel.admission.PolicyTypeChecker.Finding;
import dev.tollgate.cel.admission.PolicyTypeChecker.Severity;

/**
 * Type checks the CEL policies a run uses before any case, with the shared {@link PolicyTypeChecker}: every
 * expression compiled as the API server compiles it when the policy is created (an error where it refuses the policy)
 * and against the schemas of the kinds the policy matches, as its {@code status.typeChecking} (a warning). The
 * schemas are the CustomResourceDefinitions and OpenAPI documents the test files give ({@code schemas}) and any
 * CustomResourceDefinition among the policy files, then the CustomResourceDefinitions a cluster serves ({@code
 * tollgate test --kubeconfig}), then the built-in kinds' ({@link KubernetesSchemas}): the first to know a kind wins
 * for it; a kind without a schema is not checked, as upstream.
 */
final class TypeCheck {

    /** Findings by their text: a policy used by several files is reported once. */
    private final Map<String, Finding> findings = new LinkedHashMap<>();

    /**
     * Checks the policies among {@code policies} against the schemas among {@code schemas} and {@code policies},
     * then those of {@code cluster} (CustomResourceDefinitions read from a cluster), then the built-in kinds'.
     */
    void check(List<ConfigFiles.Document> policies, List<ConfigFiles.Document> schemas,
            List<ConfigFiles.Document> cluster) {
        List<ConfigFiles.Document> given = new ArrayList<>(schemas);
        given.addAll(policies);
        PolicyTypeChecker checker = new PolicyTypeChecker(KubeCel.standard(), new OpenApiSchemas().add(given)
                .orElse(new OpenApiSchemas().add(cluster)).orElse(KubernetesSchemas.builtIn()));
        for (Finding f : checker.check(policies)) {
            findings.putIfAbsent(f.toString(), f);
        }
    }

    List<Finding> findings() {
        return List.copyOf(findings.values());
    }

    boolean hasErrors() {
        return findings.values().stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    /**
     * {@code error: <Kind 'name' (file#n)>: <field>: <the API server's message>}; a warning holds one result per
     * matched kind, each on its lines (typechecking.go joins them with newlines; cel-go's own carets follow).
     */
    static String line(Finding f) {
        return (f.severity() == Severity.ERROR ? "error: " : "warning: ") + f.source() + ": " + f.fieldRef() + ": "
                + f.message().strip();
    }
}
