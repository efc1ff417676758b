package dev.tollgate.admission.registration;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The API server's validation of webhook entries and webhook configurations (admissionregistration.k8s.io/v1), so
 * that a declared {@code webhook.yaml} or a rendered configuration is rejected here, not by a cluster. Each method
 * returns every problem found, as {@code <field path>: <problem>}; an empty list means valid.
 */
public final class RegistrationValidator {

    public static final int MAX_MATCH_CONDITIONS = 64;

    private static final Set<String> VALIDATING_FIELDS = Set.of("name", "clientConfig", "rules", "failurePolicy",
            "matchPolicy", "namespaceSelector", "objectSelector", "sideEffects", "timeoutSeconds",
            "admissionReviewVersions", "matchConditions");
    private static final Set<String> OPERATIONS = Set.of("*", "CREATE", "UPDATE", "DELETE", "CONNECT");
    private static final Set<String> SCOPES = Set.of("*", "Cluster", "Namespaced");
    private static final List<String> CONVERSION_ENTRY_FIELDS = List.of("type", "path", "crd", "versions",
            "conversionReviewVersions");
    private static final java.util.regex.Pattern DNS1035_LABEL =
            java.util.regex.Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");

    private RegistrationValidator() {
    }

    /**
     * Validates a declared entry from webhook.yaml: the Kubernetes fields plus Tollgate's {@code type}/{@code path},
     * or a conversion entry's fields.
     */
    public static List<String> validateDeclared(WebhookRegistration registration) {
        JsonNode entry = registration.entry();
        String at = registration.function() + "/webhook.yaml[" + entry.path("name").asText("?") + "]";
        List<String> errors = new ArrayList<>();
        String type = entry.path("type").asText("");
        if (type.equals("conversion")) {
            at = registration.function() + "/webhook.yaml[" + entry.path("crd").asText("?") + "]";
        } else if (!type.equals("validating") && !type.equals("mutating")) {
            errors.add(at + ".type: must be validating, mutating or conversion, got '" + type + "'");
        }
        String path = entry.path("path").asText("");
        if (!path.startsWith("/" + registration.function())
                || !(path.length() == registration.function().length() + 1
                        || path.charAt(registration.function().length() + 1) == '/')) {
            errors.add(at + ".path: must be /" + registration.function() + " or below it, got '" + path + "'");
        } else if (path.contains("?") || path.contains("#") || path.contains("//") || path.endsWith("/")) {
            errors.add(at + ".path: must be a plain path without query, fragment, empty segments or trailing '/'");
        }
        if (entry.has("clientConfig")) {
            errors.add(at + ".clientConfig: must not be declared; Terraform adds it from the function's URL");
        }
        if (type.equals("conversion")) {
            validateConversion(entry, at, errors);
            return errors;
        }
        var copy = registration.webhook();
        errors.addAll(validateWebhook(copy, type.equals("mutating"), at, false));
        return errors;
    }

    /**
     * A conversion entry: the CRD's name and versions as the API server validates a CustomResourceDefinition
     * (apiextensions validation.go: the name is {@code <plural>.<group>}, the group has a dot, versions are DNS-1035
     * labels, no duplicates) and {@code conversionReviewVersions} as it validates {@code spec.conversion.webhook}
     * (at least one of v1, v1beta1, no duplicates).
     */
    private static void validateConversion(JsonNode entry, String at, List<String> errors) {
        for (var it = entry.fieldNames(); it.hasNext();) {
            String field = it.next();
            if (field.equals("clientConfig")) {
                continue; // reported above
            }
            if (!CONVERSION_ENTRY_FIELDS.contains(field)) {
                errors.add(at + "." + field + ": unknown field (a conversion entry has "
                        + String.join(", ", CONVERSION_ENTRY_FIELDS) + ")");
            }
        }
        String crd = entry.path("crd").asText("");
        if (crd.isEmpty()) {
            errors.add(at + ".crd: required, the CustomResourceDefinition's name (<plural>.<group>)");
        } else if (!LabelSyntax.isDnsSubdomain(crd) || crd.split("\\.", -1).length < 3) {
            errors.add(at + ".crd: '" + crd + "' must be a CustomResourceDefinition name: <plural>.<group>, a "
                    + "lowercase DNS subdomain whose group has at least one dot");
        }
        JsonNode versions = entry.get("versions");
        if (versions == null || !versions.isArray() || versions.size() < 2) {
            errors.add(at + ".versions: required, the CRD's versions (at least two: a single version needs no "
                    + "conversion)");
        } else {
            Set<String> seen = new HashSet<>();
            for (JsonNode v : versions) {
                String name = v.asText("");
                if (!v.isTextual() || !DNS1035_LABEL.matcher(name).matches()) {
                    errors.add(at + ".versions: '" + name + "' is not a version name (a DNS-1035 label such as "
                            + "v1beta1)");
                } else if (!seen.add(name)) {
                    errors.add(at + ".versions: duplicate version '" + name + "'");
                }
            }
        }
        validateReviewVersions(entry.get("conversionReviewVersions"), at + ".conversionReviewVersions", errors);
    }

    /**
     * Validates one webhook entry as the API server does.
     *
     * @param needsClientConfig true for entries of a real configuration object
     */
    public static List<String> validateWebhook(JsonNode webhook, boolean mutating, String at,
            boolean needsClientConfig) {
        List<String> errors = new ArrayList<>();
        for (var it = webhook.fieldNames(); it.hasNext();) {
            String field = it.next();
            if (!VALIDATING_FIELDS.contains(field) && !(mutating && field.equals("reinvocationPolicy"))) {
                errors.add(at + "." + field + ": unknown field"
                        + (field.equals("reinvocationPolicy") ? " (reinvocationPolicy is for mutating webhooks only)"
                                : ""));
            }
        }
        String name = webhook.path("name").asText("");
        if (name.isEmpty()) {
            errors.add(at + ".name: required");
        } else if (!LabelSyntax.isDnsSubdomain(name) || name.split("\\.", -1).length < 3) {
            errors.add(at + ".name: '" + name + "' must be a fully qualified name: a lowercase DNS subdomain with "
                    + "at least three segments separated by dots");
        }
        JsonNode rules = webhook.path("rules");
        if (!rules.isMissingNode() && !rules.isArray()) {
            errors.add(at + ".rules: expected an array");
        }
        for (int i = 0; i < rules.size(); i++) {
            validateRule(rules.get(i), at + ".rules[" + i + "]", errors);
        }
        oneOf(webhook, "failurePolicy", Set.of("Ignore", "Fail"), at, errors);
        oneOf(webhook, "matchPolicy", Set.of("Exact", "Equivalent"), at, errors);
        if (mutating) {
            oneOf(webhook, "reinvocationPolicy", Set.of("Never", "IfNeeded"), at, errors);
        }
        JsonNode sideEffects = webhook.get("sideEffects");
        if (sideEffects == null || sideEffects.isNull()) {
            errors.add(at + ".sideEffects: required (None or NoneOnDryRun)");
        } else {
            oneOf(webhook, "sideEffects", Set.of("None", "NoneOnDryRun"), at, errors);
        }
        JsonNode timeout = webhook.get("timeoutSeconds");
        if (timeout != null && !timeout.isNull()
                && (!timeout.canConvertToExactIntegral() || timeout.asInt() < 1 || timeout.asInt() > 30)) {
            errors.add(at + ".timeoutSeconds: must be an integer between 1 and 30 seconds, got " + timeout);
        }
        validateReviewVersions(webhook.get("admissionReviewVersions"), at + ".admissionReviewVersions", errors);
        selector(webhook.get("namespaceSelector"), at + ".namespaceSelector", errors);
        selector(webhook.get("objectSelector"), at + ".objectSelector", errors);
        validateMatchConditions(webhook.get("matchConditions"), at + ".matchConditions", errors);
        if (needsClientConfig) {
            validateClientConfig(webhook.get("clientConfig"), at + ".clientConfig", errors);
        }
        return errors;
    }

    /** Validates a whole MutatingWebhookConfiguration or ValidatingWebhookConfiguration object. */
    public static List<String> validateConfiguration(JsonNode config) {
        List<String> errors = new ArrayList<>();
        if (config == null || !config.isObject()) {
            return List.of("configuration: expected an object");
        }
        if (!"admissionregistration.k8s.io/v1".equals(config.path("apiVersion").asText())) {
            errors.add("apiVersion: must be admissionregistration.k8s.io/v1");
        }
        String kind = config.path("kind").asText("");
        boolean mutating = kind.equals("MutatingWebhookConfiguration");
        if (!mutating && !kind.equals("ValidatingWebhookConfiguration")) {
            errors.add("kind: must be MutatingWebhookConfiguration or ValidatingWebhookConfiguration, got '" + kind
                    + "'");
        }
        String name = config.path("metadata").path("name").asText("");
        if (!LabelSyntax.isDnsSubdomain(name)) {
            errors.add("metadata.name: '" + name + "' must be a lowercase DNS subdomain");
        }
        JsonNode webhooks = config.path("webhooks");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < webhooks.size(); i++) {
            JsonNode w = webhooks.get(i);
            String at = kind + "/" + name + ".webhooks[" + i + "]";
            errors.addAll(validateWebhook(w, mutating, at, true));
            if (!names.add(w.path("name").asText())) {
                errors.add(at + ".name: duplicate webhook name '" + w.path("name").asText() + "'");
            }
        }
        return errors;
    }

    /** The API server's checks on a webhook URL: https, a host, no user info, query or fragment. */
    public static List<String> validateUrl(String url, String at) {
        List<String> errors = new ArrayList<>();
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return List.of(at + ": '" + url + "' is not a valid URL: " + e.getReason());
        }
        if (!"https".equals(uri.getScheme())) {
            errors.add(at + ": '" + url + "' must use the https scheme");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            errors.add(at + ": '" + url + "' has no host");
        }
        if (uri.getRawUserInfo() != null) {
            errors.add(at + ": '" + url + "' must not contain user info");
        }
        if (uri.getRawQuery() != null) {
            errors.add(at + ": '" + url + "' must not contain a query");
        }
        if (uri.getRawFragment() != null) {
            errors.add(at + ": '" + url + "' must not contain a fragment");
        }
        return errors;
    }

    private static void validateClientConfig(JsonNode cc, String at, List<String> errors) {
        if (cc == null || !cc.isObject()) {
            errors.add(at + ": required");
            return;
        }
        boolean hasUrl = cc.hasNonNull("url");
        boolean hasService = cc.hasNonNull("service");
        if (hasUrl == hasService) {
            errors.add(at + ": exactly one of url or service is required");
        }
        if (hasUrl) {
            errors.addAll(validateUrl(cc.path("url").asText(), at + ".url"));
        }
        if (cc.hasNonNull("caBundle")) {
            try {
                Base64.getDecoder().decode(cc.path("caBundle").asText());
            } catch (IllegalArgumentException e) {
                errors.add(at + ".caBundle: must be base64-encoded PEM");
            }
        }
    }

    private static void validateRule(JsonNode rule, String at, List<String> errors) {
        if (!rule.isObject()) {
            errors.add(at + ": expected an object");
            return;
        }
        List<String> ops = strings(rule, "operations", at, errors);
        for (String op : ops) {
            if (!OPERATIONS.contains(op)) {
                errors.add(at + ".operations: '" + op + "' is not one of *, CREATE, UPDATE, DELETE, CONNECT");
            }
        }
        wildcardAlone(ops, at + ".operations", "operations", errors);
        List<String> groups = strings(rule, "apiGroups", at, errors);
        wildcardAlone(groups, at + ".apiGroups", "API groups", errors);
        List<String> versions = strings(rule, "apiVersions", at, errors);
        for (String v : versions) {
            if (v.isEmpty()) {
                errors.add(at + ".apiVersions: must not contain an empty version");
            }
        }
        wildcardAlone(versions, at + ".apiVersions", "API versions", errors);
        validateResources(strings(rule, "resources", at, errors), at + ".resources", errors);
        if (rule.hasNonNull("scope") && !SCOPES.contains(rule.path("scope").asText())) {
            errors.add(at + ".scope: must be Cluster, Namespaced or *, got '" + rule.path("scope").asText() + "'");
        }
    }

    /** The API server's rules on resources: no empty entries and no overlapping wildcards. */
    private static void validateResources(List<String> resources, String at, List<String> errors) {
        if (resources.isEmpty()) {
            errors.add(at + ": required");
            return;
        }
        Set<String> withWildcardSub = new HashSet<>();
        Set<String> subWithWildcardRes = new HashSet<>();
        boolean doubleWildcard = false;
        boolean singleWildcard = false;
        boolean plainResource = false;
        for (String entry : resources) {
            if (entry.isEmpty()) {
                errors.add(at + ": must not contain an empty resource");
                continue;
            }
            if (entry.equals("*/*")) {
                doubleWildcard = true;
            }
            int slash = entry.indexOf('/');
            if (slash < 0) {
                if (entry.equals("*")) {
                    singleWildcard = true;
                } else {
                    plainResource = true;
                }
                continue;
            }
            String res = entry.substring(0, slash);
            String sub = entry.substring(slash + 1);
            if (withWildcardSub.contains(res)) {
                errors.add(at + ": if '" + res + "/*' is present, must not specify " + entry);
            }
            if (subWithWildcardRes.contains(sub)) {
                errors.add(at + ": if '*/" + sub + "' is present, must not specify " + entry);
            }
            if (sub.equals("*")) {
                withWildcardSub.add(res);
            }
            if (res.equals("*")) {
                subWithWildcardRes.add(sub);
            }
        }
        if (resources.size() > 1 && doubleWildcard) {
            errors.add(at + ": if '*/*' is present, must not specify other resources");
        }
        if (singleWildcard && plainResource) {
            errors.add(at + ": if '*' is present, must not specify other resources without subresources");
        }
    }

    /** {@code admissionReviewVersions} or {@code conversionReviewVersions}, at {@code at} (the field's path). */
    private static void validateReviewVersions(JsonNode versions, String at, List<String> errors) {
        if (versions == null || !versions.isArray() || versions.isEmpty()) {
            errors.add(at + ": required, a non-empty list such as [v1, v1beta1]");
            return;
        }
        Set<String> seen = new HashSet<>();
        boolean known = false;
        for (JsonNode v : versions) {
            String s = v.asText("");
            if (!seen.add(s)) {
                errors.add(at + ": duplicate version '" + s + "'");
            }
            if (ReviewVersion.fromShortName(s).isPresent()) {
                known = true;
            } else {
                errors.add(at + ": '" + s + "' is not a known version (v1, v1beta1)");
            }
        }
        if (!known) {
            errors.add(at + ": must include at least one of v1, v1beta1");
        }
    }

    private static void validateMatchConditions(JsonNode conditions, String at, List<String> errors) {
        if (conditions == null || conditions.isNull()) {
            return;
        }
        if (!conditions.isArray()) {
            errors.add(at + ": expected an array");
            return;
        }
        if (conditions.size() > MAX_MATCH_CONDITIONS) {
            errors.add(at + ": at most " + MAX_MATCH_CONDITIONS + " conditions are allowed, got " + conditions.size());
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode c = conditions.get(i);
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                errors.add(at + "[" + i + "].name: required");
            } else if (!LabelSyntax.isQualifiedName(name)) {
                errors.add(at + "[" + i + "].name: '" + name + "' must be a qualified name");
            } else if (!names.add(name)) {
                errors.add(at + "[" + i + "].name: duplicate name '" + name + "'");
            }
            if (c.path("expression").asText("").isBlank()) {
                errors.add(at + "[" + i + "].expression: required");
            }
        }
    }

    private static void selector(JsonNode node, String at, List<String> errors) {
        try {
            LabelSelector.parse(node);
        } catch (IllegalArgumentException e) {
            errors.add(at + ": " + e.getMessage());
        }
    }

    private static void oneOf(JsonNode node, String field, Set<String> allowed, String at, List<String> errors) {
        JsonNode v = node.get(field);
        if (v != null && !v.isNull() && !allowed.contains(v.asText())) {
            errors.add(at + "." + field + ": '" + v.asText() + "' is not one of " + new java.util.TreeSet<>(allowed));
        }
    }

    private static void wildcardAlone(List<String> values, String at, String what, List<String> errors) {
        if (values.size() > 1 && values.contains("*")) {
            errors.add(at + ": if '*' is present, must not specify other " + what);
        }
    }

    private static List<String> strings(JsonNode rule, String field, String at, List<String> errors) {
        JsonNode list = rule.path(field);
        List<String> out = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            errors.add(at + "." + field + ": expected an array of strings");
            return out;
        }
        for (JsonNode v : list) {
            out.add(v.asText());
        }
        return out;
    }
}
