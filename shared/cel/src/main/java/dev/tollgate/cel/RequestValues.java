package dev.tollgate.cel;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionKind;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.UserInfo;

/**
 * The CEL {@code request} variable: the admission.k8s.io/v1 AdmissionRequest fields, minus {@code object} and
 * {@code oldObject} (they have their own variables), converted the way the API server converts it: empty optional
 * fields are absent ({@code omitempty}), so {@code has(request.namespace)} is false for cluster-scoped resources.
 */
final class RequestValues {

    private RequestValues() {
    }

    static Map<String, Object> of(AdmissionRequest r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("uid", r.uid());
        m.put("kind", gvk(r.kind()));
        m.put("resource", gvr(r.resource()));
        putIfNotEmpty(m, "subResource", r.subResource());
        m.put("requestKind", gvk(r.requestKind() != null ? r.requestKind() : r.kind()));
        m.put("requestResource", gvr(r.requestResource() != null ? r.requestResource() : r.resource()));
        putIfNotEmpty(m, "requestSubResource", r.requestSubResource());
        putIfNotEmpty(m, "name", r.name());
        putIfNotEmpty(m, "namespace", r.namespace());
        m.put("operation", r.operation().name());
        m.put("userInfo", userInfo(r.userInfo()));
        m.put("dryRun", r.dryRun());
        if (r.options() != null && !r.options().isNull()) {
            m.put("options", CelValues.fromJson(r.options()));
        }
        return m;
    }

    private static Map<String, Object> gvk(GroupVersionKind k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("group", k.group());
        m.put("version", k.version());
        m.put("kind", k.kind());
        return m;
    }

    private static Map<String, Object> gvr(GroupVersionResource r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("group", r.group());
        m.put("version", r.version());
        m.put("resource", r.resource());
        return m;
    }

    private static Map<String, Object> userInfo(UserInfo u) {
        Map<String, Object> m = new LinkedHashMap<>();
        putIfNotEmpty(m, "username", u.username());
        putIfNotEmpty(m, "uid", u.uid());
        if (!u.groups().isEmpty()) {
            m.put("groups", u.groups());
        }
        if (!u.extra().isEmpty()) {
            m.put("extra", u.extra());
        }
        return m;
    }

    private static void putIfNotEmpty(Map<String, Object> m, String key, String value) {
        if (value != null && !value.isEmpty()) {
            m.put(key, value);
        }
    }
}
