package dev.tollgate.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.registration.WebhookRegistration;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.gatekeeper.RegistrationRules;

/**
 * The registration of the CEL functions follows the policies they serve (shared/gatekeeper {@link RegistrationRules}):
 * {@code tollgate registration} writes it for Terraform, and the simulator plays it, so that the API server it plays
 * sends such a function what Terraform registers it for, not the static rules of its webhook.yaml.
 */
public final class ServedPolicies {

    /** The operations Constraints are registered for by default (Gatekeeper's webhook). */
    public static final List<String> GATEKEEPER_OPERATIONS = RegistrationRules.GATEKEEPER_OPERATIONS;

    /** The functions whose policies come from files, and the configuration key that lists the files. */
    public static final Map<String, String> CONFIG_KEYS = Map.of("cel-policy", "tollgate.cel-policy.config",
            "cel-mutate", "tollgate.cel-mutate.config");

    private static final ObjectMapper JSON = new ObjectMapper();

    private ServedPolicies() {
    }

    /**
     * The registration derived from the policy files, as Terraform's {@code policy_rules[<function>]} takes it:
     * {@code generated_by}, {@code sources} (each file read and its SHA-256, so Terraform sees a file changed since),
     * then {@code rules}, the selectors, {@code policies} and {@code applied_by_function}.
     *
     * @throws InputException for a path that does not exist, invalid YAML or a policy the derivation refuses
     */
    public static ObjectNode registration(List<Path> paths, List<String> gatekeeperOperations, String generatedBy) {
        List<ConfigFiles.Document> docs = read(paths);
        RegistrationRules.Result result = derive(docs, gatekeeperOperations, paths.toString());
        ObjectNode out = JSON.createObjectNode().put("generated_by", generatedBy);
        ArrayNode sources = out.putArray("sources");
        Set<String> files = new LinkedHashSet<>();
        docs.forEach(d -> files.add(d.source().substring(0, d.source().lastIndexOf('#'))));
        for (String f : files) {
            sources.addObject().put("file", f).put("sha256", sha256(Path.of(f)));
        }
        out.setAll(result.toJson());
        return out;
    }

    /**
     * {@code catalog} with the entries of the functions in {@code configs} (function => its configuration paths)
     * derived from the policies they serve.
     */
    public static List<WebhookRegistration> apply(List<WebhookRegistration> catalog, Map<String, List<Path>> configs) {
        List<WebhookRegistration> out = new ArrayList<>();
        for (WebhookRegistration r : catalog) {
            List<Path> paths = configs.get(r.function());
            if (paths == null || r.conversion()) {
                out.add(r);
                continue;
            }
            RegistrationRules.Result derived = derive(read(paths), GATEKEEPER_OPERATIONS,
                    CONFIG_KEYS.getOrDefault(r.function(), r.function()) + "=" + paths);
            out.add(new WebhookRegistration(r.function(), derived.applyTo(r.entry())));
        }
        return out;
    }

    /** The {@code v1 Namespace} objects of the functions' configuration files (what those functions know). */
    public static List<ObjectNode> namespaces(Map<String, List<Path>> configs) {
        List<ObjectNode> out = new ArrayList<>();
        configs.values().forEach(paths -> read(paths).stream().filter(d -> Namespaces.isNamespace(d.object()))
                .forEach(d -> out.add(d.object())));
        return out;
    }

    private static List<ConfigFiles.Document> read(List<Path> paths) {
        try {
            return ConfigFiles.read(paths);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new InputException(e.getMessage(), e);
        }
    }

    private static RegistrationRules.Result derive(List<ConfigFiles.Document> docs, List<String> operations,
            String where) {
        try {
            return RegistrationRules.derive(docs, operations);
        } catch (PolicyConfig.InvalidConfigException e) {
            throw new InputException("the registration of " + where + " cannot be derived: " + e.getMessage(), e);
        }
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new InputException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
