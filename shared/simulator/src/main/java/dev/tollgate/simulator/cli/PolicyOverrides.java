package dev.tollgate.simulator.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celmutate.CelMutate;
import dev.tollgate.functions.celmutate.MutatingPolicies;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.policytest.PolicyDocuments;
import dev.tollgate.simulator.policytest.TestRunner;

/**
 * The bundled CEL functions with a test file's own policies: cel-policy and cel-mutate built from the files the test
 * file names (as each function builds itself from {@code tollgate.cel-*.config} at startup, namespaces they do not
 * list existing with only their name label, {@code authorizer} checks errors). The test runner answers them in this
 * process through the admission library's decode, evaluate, patch and encode path ({@link AdmissionHandler}); calls
 * to any other function go to the bundle served on loopback, as for {@code tollgate review}.
 */
public final class PolicyOverrides implements TestRunner.CelFunctions {

    @Override
    public Map<String, AdmissionPolicy> build(Path testFile, Map<String, List<Path>> policies,
            List<String> problems) {
        Map<String, AdmissionPolicy> built = new LinkedHashMap<>();
        for (Map.Entry<String, List<Path>> e : policies.entrySet()) {
            String field = testFile + ": policies." + e.getKey();
            List<ConfigFiles.Document> docs = PolicyDocuments.read(field, e.getValue());
            try {
                if (e.getKey().equals("cel-policy")) {
                    // ValidatingAdmissionPolicies and Gatekeeper templates and constraints, as the function loads them.
                    CelPolicy.Loaded p = CelPolicy.fromDocuments(docs, CelPolicy.environment("none"),
                            NamespaceOptions.config(Namespaces.Unknown.EMPTY));
                    p.policies().compileErrors().forEach(m -> problems.add("policies." + e.getKey() + ": " + m));
                    p.gatekeeper().compileErrors().forEach(m -> problems.add("policies." + e.getKey() + ": " + m));
                    built.put(e.getKey(), new CelPolicy(p));
                } else {
                    MutatingPolicies p = MutatingPolicies.load(docs, CelMutate.environment("none"),
                            Namespaces.Unknown.EMPTY);
                    p.compileErrors().forEach(m -> problems.add("policies." + e.getKey() + ": " + m));
                    built.put(e.getKey(), new CelMutate(p));
                }
            } catch (IllegalArgumentException bad) {
                throw new InputException(field + ": " + PolicyDocuments.oneLine(bad.getMessage()));
            }
        }
        return built;
    }
}
