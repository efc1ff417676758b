package dev.tollgate.simulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * The webhook configurations a simulated API server holds, in the order it calls them: configurations sorted by
 * name, then webhooks in their order within each configuration (mutating and validating separately).
 */
public final class Configurations {

    public static final String MUTATING = "MutatingWebhookConfiguration";
    public static final String VALIDATING = "ValidatingWebhookConfiguration";
    /** The name of the configurations rendered from the catalog (one mutating, one validating). */
    public static final String RENDERED_NAME = "tollgate";
    /**
     * Namespaces the rendered configurations leave alone, so the functions cannot block the cluster's own
     * workloads or themselves: the defaults of terraform/modules/webhook-configurations (excluded_namespaces plus
     * functions_namespace).
     */
    public static final List<String> DEFAULT_EXCLUDED_NAMESPACES = List.of("kube-system", "kube-node-lease",
            "knative-serving", "knative-eventing", "kourier-system", "knative-operator", "tollgate");

    private final List<ObjectNode> objects;
    private final List<Webhook> mutating;
    private final List<Webhook> validating;

    public Configurations(List<ObjectNode> objects) {
        this.objects = List.copyOf(objects);
        this.mutating = ordered(objects, MUTATING);
        this.validating = ordered(objects, VALIDATING);
    }

    public List<ObjectNode> objects() {
        return objects;
    }

    public List<Webhook> mutating() {
        return mutating;
    }

    public List<Webhook> validating() {
        return validating;
    }

    private static List<Webhook> ordered(List<ObjectNode> objects, String kind) {
        List<ObjectNode> configs = objects.stream().filter(o -> kind.equals(o.path("kind").asText()))
                .sorted(Comparator.comparing(o -> o.path("metadata").path("name").asText())).toList();
        List<Webhook> out = new ArrayList<>();
        for (ObjectNode config : configs) {
            String name = config.path("metadata").path("name").asText();
            for (JsonNode w : config.path("webhooks")) {
                out.add(new Webhook(name, kind.equals(MUTATING), out.size(), (ObjectNode) w));
            }
        }
        return out;
    }

    /**
     * Reads configuration objects from YAML or JSON files: plain objects, {@code List}s, or any document holding
     * them deeper (such as {@code terraform output -json}). Every object is validated as the API server would; any
     * problem, or a webhook the simulator cannot call, is an {@link InputException} listing all of them.
     */
    public static Configurations read(List<Path> files) {
        List<ObjectNode> found = new ArrayList<>();
        for (Path file : files) {
            int before = found.size();
            for (JsonNode doc : Yaml.readDocuments(file)) {
                collect(doc, found);
            }
            if (found.size() == before) {
                throw new InputException(file + ": holds no MutatingWebhookConfiguration or "
                        + "ValidatingWebhookConfiguration");
            }
        }
        List<String> problems = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (ObjectNode config : found) {
            problems.addAll(RegistrationValidator.validateConfiguration(config));
            String id = config.path("kind").asText() + "/" + config.path("metadata").path("name").asText();
            if (!seen.add(id)) {
                problems.add(id + ": given twice");
            }
            for (JsonNode w : config.path("webhooks")) {
                if (!w.path("clientConfig").hasNonNull("url")) {
                    problems.add(id + " webhook " + w.path("name").asText() + ": clientConfig.service cannot be "
                            + "reached from here; give a clientConfig.url (or use --url with the catalog)");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw InputException.of("invalid webhook configuration", problems);
        }
        return new Configurations(found);
    }

    private static void collect(JsonNode node, List<ObjectNode> out) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            String kind = node.path("kind").asText("");
            if (kind.equals(MUTATING) || kind.equals(VALIDATING)) {
                out.add((ObjectNode) node);
                return;
            }
            node.elements().forEachRemaining(child -> collect(child, out));
        } else if (node.isArray()) {
            node.elements().forEachRemaining(child -> collect(child, out));
        }
    }

    /**
     * Renders one MutatingWebhookConfiguration and one ValidatingWebhookConfiguration (named {@value #RENDERED_NAME})
     * from the functions' registrations, as the Terraform module does: each entry's webhook fields, a
     * {@code clientConfig.url} of the function's base URL plus the entry's path, and the excluded namespaces added
     * to its namespaceSelector. Conversion entries are left out: they are not admission webhooks.
     *
     * @param baseUrl  the base URL serving a function (by function name), without a trailing slash
     * @param caBundle PEM text the API server should trust for these URLs, or empty for the system roots
     */
    public static Configurations render(List<WebhookRegistration> registrations, Function<String, String> baseUrl,
            String caBundle, List<String> excludedNamespaces) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        Map<String, ObjectNode> byKind = new java.util.LinkedHashMap<>();
        List<WebhookRegistration> sorted = registrations.stream()
                .sorted(Comparator.comparing(WebhookRegistration::function)).toList();
        for (WebhookRegistration r : sorted) {
            if (r.conversion()) {
                // A CRD's spec.conversion, not an admission webhook (terraform/modules/crd-conversion renders it).
                continue;
            }
            String kind = r.mutating() ? MUTATING : VALIDATING;
            ObjectNode config = byKind.computeIfAbsent(kind, k -> {
                ObjectNode c = f.objectNode();
                c.put("apiVersion", "admissionregistration.k8s.io/v1");
                c.put("kind", k);
                c.putObject("metadata").put("name", RENDERED_NAME);
                c.putArray("webhooks");
                return c;
            });
            ObjectNode webhook = r.webhook();
            ObjectNode client = f.objectNode();
            String base = baseUrl.apply(r.function());
            if (base == null) {
                continue; // not served where we are looking: the caller decides whether that is an error
            }
            client.put("url", stripSlash(base) + r.path());
            if (!caBundle.isEmpty()) {
                client.put("caBundle", Base64.getEncoder().encodeToString(caBundle.getBytes(StandardCharsets.UTF_8)));
            }
            ObjectNode ordered = f.objectNode();
            ordered.put("name", r.name());
            ordered.set("clientConfig", client);
            webhook.fields().forEachRemaining(e -> {
                if (!e.getKey().equals("name")) {
                    ordered.set(e.getKey(), e.getValue());
                }
            });
            if (!excludedNamespaces.isEmpty()) {
                exclude(ordered, excludedNamespaces);
            }
            ((ArrayNode) config.get("webhooks")).add(ordered);
        }
        byKind.values().removeIf(c -> c.path("webhooks").isEmpty());
        return new Configurations(new ArrayList<>(byKind.values()));
    }

    /** Adds {@code kubernetes.io/metadata.name NotIn [...]} to the webhook's namespaceSelector. */
    private static void exclude(ObjectNode webhook, List<String> namespaces) {
        ObjectNode selector = webhook.has("namespaceSelector") && webhook.get("namespaceSelector").isObject()
                ? (ObjectNode) webhook.get("namespaceSelector") : webhook.putObject("namespaceSelector");
        ArrayNode exprs = selector.withArray("matchExpressions");
        ObjectNode req = exprs.addObject();
        req.put("key", "kubernetes.io/metadata.name");
        req.put("operator", "NotIn");
        ArrayNode values = req.putArray("values");
        namespaces.forEach(values::add);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** Reads the PEM text of a CA file. */
    public static String readPem(Path file) {
        try {
            return java.nio.file.Files.readString(file);
        } catch (IOException e) {
            throw new InputException("cannot read CA file " + file + ": " + e.getMessage(), e);
        }
    }
}
