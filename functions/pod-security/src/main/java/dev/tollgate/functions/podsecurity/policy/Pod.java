package dev.tollgate.functions.podsecurity.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * The parts of a pod (or pod template) the checks read: its metadata and spec as raw JSON, plus every container in
 * upstream's visiting order (init containers, containers, ephemeral containers). Missing fields read as Go's zero
 * values: absent, {@code null}, {@code false}, {@code ""} and {@code 0} all mean "not set".
 */
public final class Pod {

    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers", "ephemeralContainers");

    private final JsonNode metadata;
    private final JsonNode spec;
    private final List<JsonNode> containers;

    private Pod(JsonNode metadata, JsonNode spec) {
        this.metadata = metadata == null ? MissingNode.getInstance() : metadata;
        this.spec = spec == null ? MissingNode.getInstance() : spec;
        List<JsonNode> all = new ArrayList<>();
        for (String list : CONTAINER_LISTS) {
            for (JsonNode c : this.spec.path(list)) {
                if (c.isObject()) {
                    all.add(c);
                }
            }
        }
        this.containers = Collections.unmodifiableList(all);
    }

    /** A pod from its {@code metadata} and {@code spec} nodes (either may be null or missing). */
    public static Pod of(JsonNode metadata, JsonNode spec) {
        return new Pod(metadata, spec);
    }

    /** A pod from a whole Pod object (or a pod template, which has the same two fields). */
    public static Pod of(JsonNode podOrTemplate) {
        return new Pod(podOrTemplate.path("metadata"), podOrTemplate.path("spec"));
    }

    public JsonNode metadata() {
        return metadata;
    }

    public JsonNode spec() {
        return spec;
    }

    /** {@code spec.securityContext}, possibly missing. */
    public JsonNode securityContext() {
        return spec.path("securityContext");
    }

    /** Init containers, containers, then ephemeral containers, as upstream visits them. */
    public List<JsonNode> containers() {
        return containers;
    }

    /** {@code metadata.annotations}, possibly missing. */
    public JsonNode annotations() {
        return metadata.path("annotations");
    }

    /** The annotation's value, or null when the pod has no such annotation. */
    public String annotation(String key) {
        JsonNode v = annotations().get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** {@code spec.os.name == windows}: from policy 1.25 some restricted checks skip Windows pods. */
    public boolean isWindows() {
        return "windows".equals(spec.path("os").path("name").asText(null));
    }

    /** {@code spec.hostUsers == false}: a pod in a user namespace, which some checks relax for from 1.35. */
    public boolean inUserNamespace() {
        JsonNode hostUsers = spec.path("hostUsers");
        return hostUsers.isBoolean() && !hostUsers.booleanValue();
    }

    /** A container's name ("" when unset). */
    static String name(JsonNode container) {
        return text(container.path("name"));
    }

    /** True only for a JSON {@code true}. */
    static boolean isTrue(JsonNode node) {
        return node.isBoolean() && node.booleanValue();
    }

    /** The string value, or "" for anything absent, null or not a string (Go's zero value). */
    static String text(JsonNode node) {
        return node.isTextual() ? node.textValue() : "";
    }

    /** True when the field is present as an object (a non-nil pointer to a struct in Go). */
    static boolean isSet(JsonNode node) {
        return node.isObject();
    }
}
