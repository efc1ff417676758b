package dev.tollgate.simulator.policytest;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.functions.celmutate.CelMutate;
import dev.tollgate.functions.celmutate.MutatingPolicies;
import dev.tollgate.functions.celpolicy.CelPolicy;
import dev.tollgate.functions.celpolicy.ValidatingPolicies;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.Webhook;
import dev.tollgate.simulator.WebhookClient;

/**
 * The bundled CEL functions with a test file's own policies: cel-policy and cel-mutate built from the files the test
 * file names (as each function builds itself from {@code tollgate.cel-*.config} at startup, namespaces they do not
 * list existing with only their name label, {@code authorizer} checks errors), answering in this process through the
 * admission library's decode, evaluate, patch and encode path ({@link AdmissionHandler}). Calls to any other
 * function go to the client given (the bundle served on loopback, as for {@code tollgate review}).
 */
final class PolicyOverrides implements WebhookClient {

    private final Map<String, AdmissionPolicy> byFunction;
    private final WebhookClient others;
    private final AdmissionHandler handler = new AdmissionHandler(new AdmissionCodec());

    private PolicyOverrides(Map<String, AdmissionPolicy> byFunction, WebhookClient others) {
        this.byFunction = byFunction;
        this.others = others;
    }

    /**
     * @param policies per function, its configuration files and folders
     * @param problems where the functions' compile errors go, by field (the policy stays in force, as in the
     *                 function)
     * @throws InputException for a configuration the function would refuse to start with
     */
    static PolicyOverrides of(Path testFile, Map<String, List<Path>> policies, WebhookClient others,
            List<String> problems) {
        Map<String, AdmissionPolicy> built = new LinkedHashMap<>();
        for (Map.Entry<String, List<Path>> e : policies.entrySet()) {
            String field = testFile + ": policies." + e.getKey();
            List<ConfigFiles.Document> docs = documents(field, e.getValue());
            try {
                if (e.getKey().equals("cel-policy")) {
                    ValidatingPolicies p = ValidatingPolicies.load(docs, CelPolicy.environment("none"),
                            Namespaces.Unknown.EMPTY);
                    p.compileErrors().forEach(m -> problems.add("policies." + e.getKey() + ": " + m));
                    built.put(e.getKey(), new CelPolicy(p));
                } else {
                    MutatingPolicies p = MutatingPolicies.load(docs, CelMutate.environment("none"),
                            Namespaces.Unknown.EMPTY);
                    p.compileErrors().forEach(m -> problems.add("policies." + e.getKey() + ": " + m));
                    built.put(e.getKey(), new CelMutate(p));
                }
            } catch (IllegalArgumentException bad) {
                throw new InputException(field + ": " + oneLine(bad.getMessage()));
            }
        }
        return new PolicyOverrides(built, others);
    }

    static List<ConfigFiles.Document> documents(String field, List<Path> paths) {
        try {
            return new ArrayList<>(ConfigFiles.read(paths));
        } catch (RuntimeException bad) {
            throw new InputException(field + ": " + oneLine(bad.getMessage()));
        }
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*-?\\s*", "; ").replace(":;", ":");
    }

    /** Whether calls to this function are answered here. */
    boolean answers(String function) {
        return byFunction.containsKey(function);
    }

    @Override
    public Answer post(Webhook webhook, byte[] review) throws CallFailure {
        AdmissionPolicy policy = byFunction.get(function(webhook));
        if (policy == null) {
            return others.post(webhook, review);
        }
        HandlerResult<AdmissionReview> result = handler.handle(review, function(webhook), policy);
        return new Answer(result.status(), result.body());
    }

    /** The function a rendered webhook calls: the first segment of its URL's path ({@code /cel-policy}). */
    private static String function(Webhook webhook) {
        String url = webhook.entry().path("clientConfig").path("url").asText("");
        try {
            String path = URI.create(url).getPath();
            return path == null || path.length() < 2 ? "" : path.substring(1).split("/")[0];
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
