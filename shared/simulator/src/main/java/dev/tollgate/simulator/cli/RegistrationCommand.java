package dev.tollgate.simulator.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.ServedPolicies;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tollgate registration}: the webhook rules and selectors a CEL function needs for the policies it serves
 * (shared/gatekeeper {@code RegistrationRules}), as the JSON Terraform's webhook-configurations takes in
 * {@code policy_rules}. The same derivation the simulator applies to the bundled cel-policy and cel-mutate.
 */
@Command(name = "registration", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Derives a CEL function's webhook registration (rules, namespaceSelector, objectSelector) from the "
                    + "policies it serves: bound ValidatingAdmissionPolicies and MutatingAdmissionPolicies, and "
                    + "Gatekeeper Constraints (their kinds, scope, namespaces and selectors). Prints the JSON "
                    + "Terraform's webhook-configurations reads as policy_rules[<function>].",
            "Exit status: 0 when derived, 2 for bad input (a kind whose resource is not known, an invalid policy)." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class RegistrationCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(arity = "1..*", paramLabel = "POLICY",
            description = "the function's configuration: files or folders, as TOLLGATE_CEL_POLICY_CONFIG lists them "
                    + "(CustomResourceDefinitions among them give their kinds' resources)")
    List<Path> policies;

    @Option(names = "--gatekeeper-operations", split = ",", paramLabel = "OP",
            description = "operations Constraints are registered for (default: CREATE,UPDATE, as Gatekeeper's "
                    + "webhook; add DELETE as its enableDeleteOperations does)")
    List<String> gatekeeperOperations;

    @Override
    public Integer call() {
        try {
            List<String> ops = gatekeeperOperations == null ? ServedPolicies.GATEKEEPER_OPERATIONS
                    : gatekeeperOperations.stream().map(o -> o.trim().toUpperCase(Locale.ROOT)).toList();
            for (String op : ops) {
                if (!List.of("CREATE", "UPDATE", "DELETE", "CONNECT", "*").contains(op)) {
                    throw new InputException("--gatekeeper-operations: '" + op
                            + "' is not an operation (CREATE, UPDATE, DELETE, CONNECT, *)");
                }
            }
            List<String> args = new ArrayList<>(List.of("tollgate", "registration"));
            if (gatekeeperOperations != null) {
                args.add("--gatekeeper-operations=" + String.join(",", ops));
            }
            policies.forEach(p -> args.add(p.toString()));
            ObjectNode out = ServedPolicies.registration(policies, ops, String.join(" ", args));
            System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
            return 0;
        } catch (InputException e) {
            System.err.println("tollgate registration: " + e.getMessage());
            return 2;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
