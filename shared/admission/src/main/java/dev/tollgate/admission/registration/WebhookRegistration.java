package dev.tollgate.admission.registration;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * One webhook entry a function declares in {@code functions/<name>/webhook.yaml}: the admissionregistration.k8s.io/v1
 * webhook fields minus {@code clientConfig}, plus {@code type} (validating or mutating) and the HTTP {@code path}
 * the function serves it at. The raw entry is kept so that every declared field reaches the generated
 * configuration unchanged.
 *
 * <p>A {@code type: conversion} entry declares a CRD conversion webhook instead: {@code crd} (the
 * CustomResourceDefinition's name), {@code versions} (the CRD's versions the function converts between) and
 * {@code conversionReviewVersions} (the CRD's {@code spec.conversion.webhook} field), plus {@code path}.
 *
 * @param function the function (module) that declares it
 * @param entry    the entry as written, including {@code type} and {@code path}
 */
public record WebhookRegistration(String function, ObjectNode entry) {

    public enum Type { validating, mutating, conversion }

    /** Fields that are Tollgate's own, not part of the Kubernetes webhook object. */
    public static final List<String> TOLLGATE_FIELDS = List.of("type", "path");
    /** A conversion entry's own fields; the rest is the CRD's {@code spec.conversion.webhook} minus clientConfig. */
    public static final List<String> CONVERSION_FIELDS = List.of("type", "path", "crd", "versions");

    /** The webhook's name; for a conversion entry the CRD's name (a CRD has at most one conversion webhook). */
    public String name() {
        return conversion() ? crd() : entry.path("name").asText("");
    }

    public Type type() {
        return Type.valueOf(entry.path("type").asText());
    }

    public boolean mutating() {
        return type() == Type.mutating;
    }

    /** A CRD conversion webhook rather than an admission webhook. */
    public boolean conversion() {
        return entry.path("type").asText().equals(Type.conversion.name());
    }

    /** The CustomResourceDefinition a conversion entry serves, e.g. {@code widgets.shop.tollgate.dev}. */
    public String crd() {
        return entry.path("crd").asText("");
    }

    /** The CRD versions a conversion entry converts between. */
    public List<String> versions() {
        List<String> out = new ArrayList<>();
        entry.path("versions").forEach(v -> out.add(v.asText()));
        return out;
    }

    public String path() {
        return entry.path("path").asText("");
    }

    public List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        for (JsonNode r : entry.path("rules")) {
            rules.add(Rule.parse(r));
        }
        return rules;
    }

    public LabelSelector namespaceSelector() {
        return LabelSelector.parse(entry.get("namespaceSelector"));
    }

    public LabelSelector objectSelector() {
        return LabelSelector.parse(entry.get("objectSelector"));
    }

    public String failurePolicy() {
        return entry.path("failurePolicy").asText("Fail");
    }

    public int timeoutSeconds() {
        return entry.path("timeoutSeconds").asInt(10);
    }

    /**
     * The Kubernetes webhook object (without Tollgate's own fields), ready for a clientConfig to be added: a webhook
     * entry of a Mutating/ValidatingWebhookConfiguration, or for a conversion entry the CRD's
     * {@code spec.conversion.webhook}.
     */
    public ObjectNode webhook() {
        ObjectNode copy = entry.deepCopy();
        copy.remove(conversion() ? CONVERSION_FIELDS : TOLLGATE_FIELDS);
        return copy;
    }
}
