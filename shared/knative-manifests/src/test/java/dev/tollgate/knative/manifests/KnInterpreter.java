package dev.tollgate.knative.manifests;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds the Knative Service that {@code kn service create} would send for an argument vector, following kn's
 * documented flag semantics (knative/client docs/cmd/kn_service_create.md and pkg/serving/config_changes.go). It is
 * written from kn's side, independently of {@link dev.tollgate.knative.KnCommand}, so that comparing its result
 * with the manifest shows whether the rendered command really is equivalent.
 */
final class KnInterpreter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> SCALE = Map.of("--scale-min", "min-scale", "--scale-max", "max-scale",
            "--scale-init", "initial-scale", "--scale-target", "target", "--scale-metric", "metric",
            "--scale-window", "window", "--scale-utilization", "target-utilization-percentage",
            "--scale-activation", "activation-scale");

    private KnInterpreter() {
    }

    static ObjectNode apply(List<String> args) {
        if (args.size() < 4 || !args.subList(0, 3).equals(List.of("kn", "service", "create"))) {
            throw new IllegalArgumentException("not a kn service create command: " + args);
        }
        ObjectNode svc = JSON.createObjectNode();
        svc.put("apiVersion", "serving.knative.dev/v1").put("kind", "Service");
        ObjectNode meta = svc.putObject("metadata").put("name", args.get(3));
        ObjectNode template = svc.putObject("spec").putObject("template");
        ObjectNode tmeta = template.putObject("metadata");
        ObjectNode tspec = template.putObject("spec");
        ObjectNode c = tspec.putArray("containers").addObject();
        String security = "strict"; // kn's default
        for (int i = 4; i < args.size(); i += 2) {
            String flag = args.get(i);
            String v = args.get(i + 1);
            switch (flag) {
                case "--image" -> {
                    c.put("image", v);
                    obj(tmeta, "annotations").put("client.knative.dev/user-image", v);
                }
                case "--namespace" -> meta.put("namespace", v);
                case "--pull-policy" -> c.put("imagePullPolicy", v);
                case "--env" -> {
                    String[] kv = v.split("=", 2);
                    arr(c, "env").addObject().put("name", kv[0]).put("value", kv[1]);
                }
                case "--env-value-from" -> {
                    String[] kv = v.split("=", 2);
                    String[] src = kv[1].split(":", 3);
                    String kind = src[0].equals("secret") || src[0].equals("sc") ? "secretKeyRef" : "configMapKeyRef";
                    arr(c, "env").addObject().put("name", kv[0]).putObject("valueFrom").putObject(kind)
                            .put("name", src[1]).put("key", src[2]);
                }
                case "--arg" -> arr(c, "args").add(v);
                case "--port" -> {
                    ObjectNode port = c.putArray("ports").addObject();
                    String[] np = v.split(":");
                    if (np.length == 2) {
                        port.put("name", np[0]);
                    }
                    port.put("containerPort", Integer.parseInt(np[np.length - 1]));
                }
                case "--probe-liveness", "--probe-readiness" -> handler(obj(c, probeName(flag)), v);
                case "--probe-liveness-opts", "--probe-readiness-opts" -> {
                    ObjectNode probe = obj(c, probeName(flag.replace("-opts", "")));
                    for (String opt : v.split(",")) {
                        String[] kv = opt.split("=", 2);
                        String key = Character.toLowerCase(kv[0].charAt(0)) + kv[0].substring(1);
                        probe.put(key, Integer.parseInt(kv[1].trim()));
                    }
                }
                case "--request", "--limit" -> {
                    ObjectNode list = obj(obj(c, "resources"), flag.equals("--request") ? "requests" : "limits");
                    for (String kv : v.split(",")) {
                        String[] p = kv.split("=", 2);
                        list.put(p[0], p[1]);
                    }
                }
                case "--volume" -> {
                    String[] kv = v.split("=", 2);
                    String[] src = kv[1].split(":", 2);
                    ObjectNode volume = arr(tspec, "volumes").addObject().put("name", kv[0]);
                    if (src[0].equals("secret") || src[0].equals("sc")) {
                        volume.putObject("secret").put("secretName", src[1]);
                    } else {
                        volume.putObject("configMap").put("name", src[1]);
                    }
                }
                case "--mount" -> {
                    // path=volume names an existing volume; kn mounts secret and configMap volumes read-only.
                    String[] kv = v.split("=", 2);
                    arr(c, "volumeMounts").addObject().put("mountPath", kv[0]).put("name", kv[1])
                            .put("readOnly", true);
                }
                case "--security-context" -> security = v;
                case "--concurrency-limit" -> tspec.put("containerConcurrency", Integer.parseInt(v));
                case "--timeout" -> tspec.put("timeoutSeconds", Integer.parseInt(v));
                case "--service-account" -> tspec.put("serviceAccountName", v);
                case "--label", "--annotation" -> {
                    String field = flag.equals("--label") ? "labels" : "annotations";
                    put(obj(meta, field), v);
                    put(obj(tmeta, field), v);
                }
                case "--label-service" -> put(obj(meta, "labels"), v);
                case "--label-revision" -> put(obj(tmeta, "labels"), v);
                case "--annotation-service" -> put(obj(meta, "annotations"), v);
                case "--annotation-revision" -> put(obj(tmeta, "annotations"), v);
                default -> {
                    String key = SCALE.get(flag);
                    if (key == null) {
                        throw new IllegalArgumentException("the interpreter does not know " + flag);
                    }
                    obj(tmeta, "annotations").put("autoscaling.knative.dev/" + key, v);
                }
            }
        }
        if (security.equals("strict")) {
            ObjectNode sc = c.putObject("securityContext");
            sc.put("allowPrivilegeEscalation", false);
            sc.putObject("capabilities").putArray("drop").add("ALL");
            sc.put("runAsNonRoot", true);
            sc.putObject("seccompProfile").put("type", "RuntimeDefault");
        } else if (!security.equals("none")) {
            throw new IllegalArgumentException("kn accepts --security-context strict or none, not " + security);
        }
        return svc;
    }

    private static String probeName(String flag) {
        return flag.equals("--probe-liveness") ? "livenessProbe" : "readinessProbe";
    }

    private static void handler(ObjectNode probe, String v) {
        String[] p = v.split(":", -1);
        switch (p[0]) {
            case "http", "https" -> {
                ObjectNode get = probe.putObject("httpGet");
                if (p[0].equals("https")) {
                    get.put("scheme", "HTTPS");
                }
                if (!p[1].isEmpty()) {
                    get.put("host", p[1]);
                }
                if (!p[2].isEmpty()) {
                    if (p[2].matches("\\d+")) {
                        get.put("port", Integer.parseInt(p[2]));
                    } else {
                        get.put("port", p[2]);
                    }
                }
                get.put("path", p[3]);
            }
            case "tcp" -> {
                // kn: Host is the second part (empty is omitted), Port is intstr.Parse of the third (a number is an
                // integer port).
                ObjectNode tcp = probe.putObject("tcpSocket");
                if (!p[1].isEmpty()) {
                    tcp.put("host", p[1]);
                }
                if (p[2].matches("\\d+")) {
                    tcp.put("port", Integer.parseInt(p[2]));
                } else {
                    tcp.put("port", p[2]);
                }
            }
            case "exec" -> {
                ArrayNode cmd = probe.putObject("exec").putArray("command");
                for (String s : p[1].split(",")) {
                    cmd.add(s);
                }
            }
            default -> throw new IllegalArgumentException("unknown probe type " + p[0]);
        }
    }

    private static void put(ObjectNode map, String kv) {
        String[] p = kv.split("=", 2);
        map.put(p[0], p[1]);
    }

    private static ObjectNode obj(ObjectNode parent, String field) {
        return parent.has(field) ? (ObjectNode) parent.get(field) : parent.putObject(field);
    }

    private static ArrayNode arr(ObjectNode parent, String field) {
        return parent.has(field) ? (ArrayNode) parent.get(field) : parent.putArray(field);
    }

    /**
     * Removes what {@link dev.tollgate.knative.KnCommand#KNOWN_DIFFERENCES} lists, from either side, so the rest
     * must be equal: the container name, TCP/HTTP defaults, zero probe fields, secret and configMap volume defaults, kn's
     * user-image annotation; and
     * sorts env by name (kn sorts plain variables).
     */
    static ObjectNode normalize(JsonNode service) {
        ObjectNode s = service.deepCopy();
        ObjectNode template = (ObjectNode) s.path("spec").path("template");
        JsonNode annotations = template.path("metadata").path("annotations");
        if (annotations instanceof ObjectNode a) {
            a.remove("client.knative.dev/user-image");
        }
        for (JsonNode v : template.path("spec").path("volumes")) {
            for (String kind : new String[] { "secret", "configMap" }) {
                if (v.get(kind) instanceof ObjectNode source) {
                    if (source.path("defaultMode").asInt(420) == 420) {
                        source.remove("defaultMode");
                    }
                    if (!source.path("optional").asBoolean(false)) {
                        source.remove("optional");
                    }
                }
            }
        }
        for (JsonNode cn : template.path("spec").path("containers")) {
            ObjectNode c = (ObjectNode) cn;
            c.remove("name");
            for (JsonNode port : c.path("ports")) {
                if ("TCP".equals(port.path("protocol").asText())) {
                    ((ObjectNode) port).remove("protocol");
                }
            }
            for (String probe : List.of("livenessProbe", "readinessProbe")) {
                if (c.get(probe) instanceof ObjectNode p) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext();) {
                        Map.Entry<String, JsonNode> e = it.next();
                        if (e.getValue().isNumber() && e.getValue().asInt() == 0) {
                            it.remove();
                        }
                    }
                    if (p.get("httpGet") instanceof ObjectNode get && "HTTP".equals(get.path("scheme").asText())) {
                        get.remove("scheme");
                    }
                }
            }
            if (c.get("env") instanceof ArrayNode env) {
                List<JsonNode> sorted = new ArrayList<>();
                env.forEach(sorted::add);
                sorted.sort((x, y) -> x.path("name").asText().compareTo(y.path("name").asText()));
                env.removeAll();
                env.addAll(sorted);
            }
        }
        return sorted(s);
    }

    /** Object keys in alphabetical order, so two equal trees print identically. */
    static ObjectNode sorted(ObjectNode node) {
        ObjectNode out = JSON.createObjectNode();
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        keys.sort(null);
        for (String k : keys) {
            out.set(k, sortedAny(node.get(k)));
        }
        return out;
    }

    private static JsonNode sortedAny(JsonNode n) {
        if (n instanceof ObjectNode o) {
            return sorted(o);
        }
        if (n instanceof ArrayNode a) {
            ArrayNode out = JSON.createArrayNode();
            a.forEach(x -> out.add(sortedAny(x)));
            return out;
        }
        return n;
    }
}
