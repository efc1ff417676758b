package dev.tollgate.knative;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Renders the {@code kn service create} command that builds the same Knative Service as a manifest. Every field of
 * the manifest is either turned into a flag or is one of the {@link #KNOWN_DIFFERENCES}; any other field makes the
 * rendering fail, so a manifest can never gain a setting that its kn command silently lacks.
 */
public final class KnCommand {

    /** What kn cannot express, or writes differently with the same effect. */
    public static final List<String> KNOWN_DIFFERENCES = List.of(
            "kn does not name the container (Knative names it user-container); the manifest names it after the "
                    + "function",
            "kn leaves ports[0].protocol and the probes' httpGet.scheme unset; TCP and HTTP are their defaults",
            "probe fields set to 0 in the manifest are the same as unset",
            "kn leaves a secret or configMap volume's defaultMode and optional unset; 0644 (420) and false are their "
                    + "defaults",
            "kn records the image it was given in the revision annotation client.knative.dev/user-image");

    /** kn's --security-context strict: what kn sets on the container unless told none. */
    static final String STRICT_SECURITY_CONTEXT = "{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":"
            + "[\"ALL\"]},\"runAsNonRoot\":true,\"seccompProfile\":{\"type\":\"RuntimeDefault\"}}";

    /** Autoscaling annotations kn has a dedicated flag for. */
    static final Map<String, String> SCALE_FLAGS = Map.of(
            "autoscaling.knative.dev/min-scale", "--scale-min",
            "autoscaling.knative.dev/max-scale", "--scale-max",
            "autoscaling.knative.dev/initial-scale", "--scale-init",
            "autoscaling.knative.dev/target", "--scale-target",
            "autoscaling.knative.dev/metric", "--scale-metric",
            "autoscaling.knative.dev/window", "--scale-window",
            "autoscaling.knative.dev/target-utilization-percentage", "--scale-utilization",
            "autoscaling.knative.dev/activation-scale", "--scale-activation");

    private static JsonNode strictSecurityContext() {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(STRICT_SECURITY_CONTEXT);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=,@%+-]+");

    private final List<String> args = new ArrayList<>();
    private final String name;

    private KnCommand(String name) {
        this.name = name;
    }

    /** The argument vector: {@code kn service create NAME --flag value ...}. */
    public List<String> args() {
        return List.copyOf(args);
    }

    /** One flag per line, shell-quoted, ready to paste. */
    public String shell() {
        StringBuilder sb = new StringBuilder("kn service create ").append(quote(name));
        for (int i = 4; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                sb.append(" \\\n  ").append(a);
            } else {
                sb.append(' ').append(quote(a));
            }
        }
        return sb.append('\n').toString();
    }

    /** @throws IllegalArgumentException naming the first field kn cannot express */
    public static KnCommand of(ServiceManifest manifest) {
        ObjectNode svc = manifest.tree().deepCopy();
        KnCommand kn = new KnCommand(manifest.name());
        kn.args.addAll(List.of("kn", "service", "create", manifest.name()));
        String where = manifest.source();

        ObjectNode meta = take(svc, "metadata", where);
        meta.remove("name");
        String namespace = text(meta.remove("namespace"));
        ObjectNode spec = take(svc, "spec", where);
        ObjectNode template = take(spec, "template", where);
        ObjectNode tmeta = template.has("metadata") ? take(template, "metadata", where) : svc.objectNode();
        ObjectNode tspec = take(template, "spec", where);
        JsonNode containers = tspec.remove("containers");
        if (containers == null || containers.size() != 1) {
            throw new IllegalArgumentException(where + ": kn service create builds one container; found "
                    + (containers == null ? 0 : containers.size()));
        }
        ObjectNode c = (ObjectNode) containers.get(0).deepCopy();

        kn.flag("--image", text(c.remove("image")));
        if (namespace != null) {
            kn.flag("--namespace", namespace);
        }
        c.remove("name"); // a known difference: kn has no flag for it
        String pull = text(c.remove("imagePullPolicy"));
        if (pull != null) {
            kn.flag("--pull-policy", pull);
        }
        kn.env(c.remove("env"), where);
        JsonNode containerArgs = c.remove("args");
        if (containerArgs != null) {
            // The container's arguments after the image's entrypoint (a native executable's heap bound, -Xmx).
            containerArgs.forEach(a -> kn.flag("--arg", a.asText()));
        }
        kn.port(c.remove("ports"), where);
        kn.probe("liveness", (ObjectNode) c.remove("livenessProbe"), where);
        kn.probe("readiness", (ObjectNode) c.remove("readinessProbe"), where);
        kn.resources((ObjectNode) c.remove("resources"), where);
        kn.volumes(tspec.remove("volumes"), c.remove("volumeMounts"), where);
        JsonNode security = c.remove("securityContext");
        if (security == null) {
            kn.flag("--security-context", "none");
        } else if (security.equals(strictSecurityContext())) {
            kn.flag("--security-context", "strict");
        } else {
            throw new IllegalArgumentException(where + ": kn can only set the securityContext '"
                    + STRICT_SECURITY_CONTEXT + "' (--security-context strict) or none, not " + security);
        }
        rejectLeftovers(c, "spec.template.spec.containers[0]", where);

        JsonNode cc = tspec.remove("containerConcurrency");
        if (cc != null) {
            kn.flag("--concurrency-limit", cc.asText());
        }
        JsonNode timeout = tspec.remove("timeoutSeconds");
        if (timeout != null) {
            kn.flag("--timeout", timeout.asText());
        }
        String account = text(tspec.remove("serviceAccountName"));
        if (account != null) {
            kn.flag("--service-account", account);
        }
        rejectLeftovers(tspec, "spec.template.spec", where);

        kn.metadata("label", meta.remove("labels"), tmeta.remove("labels"), Map.of());
        kn.metadata("annotation", meta.remove("annotations"), tmeta.remove("annotations"), SCALE_FLAGS);
        rejectLeftovers(tmeta, "spec.template.metadata", where);
        template.remove(List.of("metadata", "spec"));
        rejectLeftovers(template, "spec.template", where);
        spec.remove("template");
        rejectLeftovers(spec, "spec", where);
        rejectLeftovers(meta, "metadata", where);
        svc.remove(List.of("apiVersion", "kind", "metadata", "spec"));
        rejectLeftovers(svc, "", where);
        return kn;
    }

    private void flag(String flag, String value) {
        if (value == null) {
            throw new IllegalArgumentException("no value for " + flag);
        }
        args.add(flag);
        args.add(value);
    }

    private void env(JsonNode env, String where) {
        if (env == null) {
            return;
        }
        // kn sorts plain variables by name; keep the manifest's order only where it matters for reading.
        for (JsonNode e : env) {
            ObjectNode v = (ObjectNode) e.deepCopy();
            String n = text(v.remove("name"));
            if (v.has("value")) {
                flag("--env", n + "=" + text(v.remove("value")));
            } else if (v.has("valueFrom")) {
                ObjectNode from = (ObjectNode) v.remove("valueFrom");
                String kind = from.has("secretKeyRef") ? "secretKeyRef" : from.has("configMapKeyRef")
                        ? "configMapKeyRef" : null;
                if (kind == null || from.size() != 1) {
                    throw new IllegalArgumentException(where + ": env " + n + ": kn reads only secretKeyRef and "
                            + "configMapKeyRef values, not " + from);
                }
                ObjectNode ref = (ObjectNode) from.get(kind);
                String refName = text(ref.remove("name"));
                String key = text(ref.remove("key"));
                rejectLeftovers(ref, "env " + n + ".valueFrom." + kind, where);
                flag("--env-value-from", n + "=" + (kind.equals("secretKeyRef") ? "secret:" : "cm:") + refName + ":"
                        + key);
            }
            rejectLeftovers(v, "env " + n, where);
        }
    }

    /** Secret and ConfigMap volumes by name (--volume), mounted read-only (--mount path=volume). */
    private void volumes(JsonNode volumes, JsonNode mounts, String where) {
        if (volumes != null) {
            for (JsonNode vn : volumes) {
                ObjectNode v = vn.deepCopy();
                String volume = text(v.remove("name"));
                String kind = v.has("secret") ? "secret" : v.has("configMap") ? "configMap" : null;
                if (kind == null || v.size() != 1) {
                    throw new IllegalArgumentException(where + ": kn mounts only secret and configMap volumes, not "
                            + vn);
                }
                ObjectNode src = (ObjectNode) v.get(kind);
                String source = text(src.remove(kind.equals("secret") ? "secretName" : "name"));
                JsonNode mode = src.remove("defaultMode");
                JsonNode optional = src.remove("optional");
                if ((mode != null && mode.asInt() != 420) || (optional != null && optional.asBoolean())) {
                    throw new IllegalArgumentException(where + ": kn cannot set defaultMode " + mode + " or optional "
                            + optional + " on volume " + volume);
                }
                rejectLeftovers(src, "volume " + volume + "." + kind, where);
                flag("--volume", volume + "=" + (kind.equals("secret") ? "secret:" : "cm:") + source);
            }
        }
        if (mounts != null) {
            for (JsonNode mn : mounts) {
                ObjectNode m = mn.deepCopy();
                String volume = text(m.remove("name"));
                String path = text(m.remove("mountPath"));
                JsonNode readOnly = m.remove("readOnly");
                if (readOnly == null || !readOnly.asBoolean()) {
                    throw new IllegalArgumentException(where + ": kn mounts secret and configMap volumes read-only; "
                            + "mount " + volume + " must be readOnly: true");
                }
                rejectLeftovers(m, "volumeMount " + volume, where);
                flag("--mount", path + "=" + volume);
            }
        }
    }

    private void port(JsonNode ports, String where) {
        if (ports == null) {
            return;
        }
        if (ports.size() != 1) {
            throw new IllegalArgumentException(where + ": kn sets exactly one port");
        }
        ObjectNode p = (ObjectNode) ports.get(0).deepCopy();
        String portName = text(p.remove("name"));
        String number = text(p.remove("containerPort"));
        String protocol = text(p.remove("protocol"));
        if (protocol != null && !protocol.equals("TCP")) {
            throw new IllegalArgumentException(where + ": kn cannot set port protocol " + protocol);
        }
        rejectLeftovers(p, "ports[0]", where);
        flag("--port", portName == null || portName.isEmpty() ? number : portName + ":" + number);
    }

    private void probe(String kind, ObjectNode probe, String where) {
        if (probe == null) {
            return;
        }
        probe = probe.deepCopy();
        String handler;
        if (probe.has("httpGet")) {
            ObjectNode get = (ObjectNode) probe.remove("httpGet");
            String scheme = text(get.remove("scheme"));
            String host = text(get.remove("host"));
            String port = text(get.remove("port"));
            String path = text(get.remove("path"));
            rejectLeftovers(get, kind + "Probe.httpGet", where);
            handler = ("HTTPS".equalsIgnoreCase(scheme) ? "https" : "http") + ":" + nz(host) + ":" + nz(port) + ":"
                    + nz(path);
        } else if (probe.has("tcpSocket")) {
            ObjectNode tcp = (ObjectNode) probe.remove("tcpSocket");
            handler = "tcp:" + nz(text(tcp.remove("host"))) + ":" + nz(text(tcp.remove("port")));
            rejectLeftovers(tcp, kind + "Probe.tcpSocket", where);
        } else if (probe.has("exec")) {
            List<String> cmd = new ArrayList<>();
            probe.remove("exec").path("command").forEach(x -> cmd.add(x.asText()));
            handler = "exec:" + String.join(",", cmd);
        } else {
            throw new IllegalArgumentException(where + ": kn cannot express the " + kind + " probe " + probe);
        }
        flag("--probe-" + kind, handler);
        List<String> opts = new ArrayList<>();
        for (String f : List.of("initialDelaySeconds", "periodSeconds", "timeoutSeconds", "successThreshold",
                "failureThreshold")) {
            JsonNode v = probe.remove(f);
            if (v != null) {
                opts.add(Character.toUpperCase(f.charAt(0)) + f.substring(1) + "=" + v.asText());
            }
        }
        rejectLeftovers(probe, kind + "Probe", where);
        if (!opts.isEmpty()) {
            flag("--probe-" + kind + "-opts", String.join(",", opts));
        }
    }

    private void resources(ObjectNode resources, String where) {
        if (resources == null) {
            return;
        }
        resources = resources.deepCopy();
        for (String kind : List.of("requests", "limits")) {
            JsonNode list = resources.remove(kind);
            if (list != null && list.size() > 0) {
                List<String> parts = new ArrayList<>();
                new TreeMap<>(ServiceManifest.strings(list)).forEach((k, v) -> parts.add(k + "=" + v));
                flag(kind.equals("requests") ? "--request" : "--limit", String.join(",", parts));
            }
        }
        rejectLeftovers(resources, "resources", where);
    }

    /** Labels or annotations: the same on both objects -> --x; only on one -> --x-service / --x-revision. */
    private void metadata(String what, JsonNode service, JsonNode revision, Map<String, String> dedicated) {
        Map<String, String> s = service == null ? Map.of() : ServiceManifest.strings(service);
        Map<String, String> r = revision == null ? Map.of() : ServiceManifest.strings(revision);
        Map<String, String> both = new TreeMap<>();
        Map<String, String> serviceOnly = new TreeMap<>();
        Map<String, String> revisionOnly = new LinkedHashMap<>();
        s.forEach((k, v) -> (v.equals(r.get(k)) ? both : serviceOnly).put(k, v));
        new TreeMap<>(r).forEach((k, v) -> {
            if (!v.equals(s.get(k))) {
                revisionOnly.put(k, v);
            }
        });
        // Dedicated flags first, in a fixed order, then the generic ones.
        for (Iterator<Map.Entry<String, String>> it = revisionOnly.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, String> e = it.next();
            String flag = dedicated.get(e.getKey());
            if (flag != null) {
                flag(flag, e.getValue());
                it.remove();
            }
        }
        both.forEach((k, v) -> flag("--" + what, k + "=" + v));
        serviceOnly.forEach((k, v) -> flag("--" + what + "-service", k + "=" + v));
        revisionOnly.forEach((k, v) -> flag("--" + what + "-revision", k + "=" + v));
    }

    private static ObjectNode take(ObjectNode parent, String field, String where) {
        JsonNode n = parent.get(field);
        if (!(n instanceof ObjectNode o)) {
            throw new IllegalArgumentException(where + ": " + field + " is missing");
        }
        return o;
    }

    private static void rejectLeftovers(ObjectNode node, String path, String where) {
        if (node.size() > 0) {
            Set<String> left = new java.util.TreeSet<>();
            node.fieldNames().forEachRemaining(left::add);
            throw new IllegalArgumentException(where + ": kn service create has no flag for " + (path.isEmpty() ? ""
                    : path + ".") + left + "; add it to KnCommand or leave it out of the manifest");
        }
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    static String quote(String s) {
        return SAFE.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
