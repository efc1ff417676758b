package dev.tollgate.knative;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The checks Knative Serving's admission webhook makes on a Service beyond its CRD schema (knative/serving
 * {@code pkg/apis/serving/k8s_validation.go}, {@code metadata_validation.go}, {@code autoscaling/annotation_validation.go}),
 * for the fields Tollgate's manifests use. A manifest that passes the schema can still be refused at apply time
 * for these; checking here turns that into a build failure.
 *
 * @param maxRevisionTimeoutSeconds    config-defaults {@code max-revision-timeout-seconds}
 * @param containerConcurrencyMaxLimit config-defaults {@code container-concurrency-max-limit}
 * @param maxScaleLimit                config-autoscaler {@code max-scale-limit} (0: no limit)
 * @param allowZeroInitialScale        config-autoscaler {@code allow-zero-initial-scale}
 */
public record KnativeRules(int maxRevisionTimeoutSeconds, int containerConcurrencyMaxLimit, int maxScaleLimit,
        boolean allowZeroInitialScale) {

    /** Knative Serving's out-of-the-box cluster settings. */
    public static final KnativeRules DEFAULTS = new KnativeRules(600, 1000, 0, false);

    static final String AUTOSCALING = "autoscaling.knative.dev/";
    private static final Set<String> PORT_NAMES = Set.of("", "h2c", "http1");
    /** Ports the queue-proxy and Knative's own agents use inside the pod. */
    private static final Set<Integer> RESERVED_PORTS = Set.of(8012, 8013, 8022, 8112, 9090, 9091, 8008);
    private static final Set<String> RESERVED_ENV = Set.of("PORT", "K_SERVICE", "K_CONFIGURATION", "K_REVISION");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Duration WINDOW_MIN = Duration.ofSeconds(6);
    private static final Duration WINDOW_MAX = Duration.ofHours(1);
    private static final String KPA = "kpa.autoscaling.knative.dev";
    private static final String HPA = "hpa.autoscaling.knative.dev";

    /** Every autoscaling annotation Knative reads (with its older camelCase spellings). */
    static final Set<String> AUTOSCALING_KEYS = Set.of("class", "metric", "target", "target-utilization-percentage",
            "min-scale", "minScale", "max-scale", "maxScale", "initial-scale", "initialScale", "window",
            "panic-window-percentage", "panicWindowPercentage", "panic-threshold-percentage",
            "panicThresholdPercentage", "target-burst-capacity", "scale-down-delay", "activation-scale",
            "scale-to-zero-pod-retention-period", "metric-aggregation-algorithm");

    public List<Violation> check(ServiceManifest manifest) {
        List<Violation> out = new ArrayList<>();
        JsonNode svc = manifest.tree();
        String name = manifest.name();
        if (name.length() > 63 || !DNS1035_LABEL.matcher(name).matches()) {
            out.add(new Violation("metadata.name", "'" + name + "' must be a DNS-1035 label of at most 63 characters "
                    + "(lowercase letters, digits, '-', starting with a letter)"));
        }
        svc.path("metadata").path("annotations").fieldNames().forEachRemaining(k -> {
            if (k.startsWith(AUTOSCALING)) {
                out.add(new Violation("metadata.annotations." + k,
                        "autoscaling annotations must be put under spec.template.metadata.annotations to work"));
            }
        });
        JsonNode template = svc.path("spec").path("template");
        checkAutoscaling(ServiceManifest.strings(template.path("metadata").path("annotations")), out);
        JsonNode spec = template.path("spec");
        checkRevisionSpec(spec, out);
        return out;
    }

    private void checkRevisionSpec(JsonNode spec, List<Violation> out) {
        String p = "spec.template.spec.";
        JsonNode timeout = spec.get("timeoutSeconds");
        if (timeout != null && (!timeout.canConvertToInt() || timeout.asInt() < 0
                || timeout.asInt() > maxRevisionTimeoutSeconds)) {
            out.add(new Violation(p + "timeoutSeconds", "expected 0 <= timeoutSeconds <= " + maxRevisionTimeoutSeconds
                    + " (max-revision-timeout-seconds), got " + timeout));
        }
        for (String f : List.of("responseStartTimeoutSeconds", "idleTimeoutSeconds")) {
            JsonNode v = spec.get(f);
            if (v != null && (v.asInt() < 0 || v.asInt() > maxRevisionTimeoutSeconds)) {
                out.add(new Violation(p + f, "expected 0 <= " + f + " <= " + maxRevisionTimeoutSeconds + ", got " + v));
            }
        }
        JsonNode responseStart = spec.get("responseStartTimeoutSeconds");
        if (responseStart != null && timeout != null && responseStart.asInt() > timeout.asInt()) {
            out.add(new Violation(p + "responseStartTimeoutSeconds", "must not exceed timeoutSeconds " + timeout));
        }
        JsonNode cc = spec.get("containerConcurrency");
        if (cc != null && (!cc.canConvertToLong() || cc.asLong() < 0 || cc.asLong() > containerConcurrencyMaxLimit)) {
            out.add(new Violation(p + "containerConcurrency", "expected 0 <= containerConcurrency <= "
                    + containerConcurrencyMaxLimit + " (container-concurrency-max-limit), got " + cc));
        }
        checkVolumes(spec, out);
        JsonNode containers = spec.path("containers");
        if (!containers.isArray() || containers.isEmpty()) {
            out.add(new Violation(p + "containers", "at least one container is required"));
            return;
        }
        int withPorts = 0;
        int ports = 0;
        for (JsonNode c : containers) {
            if (c.path("ports").size() > 0) {
                withPorts++;
                ports += c.path("ports").size();
            }
        }
        if (ports > 1) {
            out.add(new Violation(p + "containers[*].ports", "more than one container port is set; Knative routes "
                    + "to a single port across all containers"));
        }
        if (containers.size() > 1 && withPorts == 0) {
            out.add(new Violation(p + "containers", "with several containers, the serving one must declare its port"));
        }
        for (int i = 0; i < containers.size(); i++) {
            JsonNode c = containers.get(i);
            boolean serving = containers.size() == 1 || c.path("ports").size() > 0;
            checkContainer(c, p + "containers[" + i + "].", serving, out);
        }
    }

    /** Every volume mounted, every mount backed by a volume, secret and configMap mounts read-only. */
    private static void checkVolumes(JsonNode spec, List<Violation> out) {
        String p = "spec.template.spec.";
        Map<String, JsonNode> volumes = new java.util.LinkedHashMap<>();
        JsonNode vs = spec.path("volumes");
        for (int i = 0; i < vs.size(); i++) {
            String name = vs.get(i).path("name").asText("");
            if (volumes.put(name, vs.get(i)) != null) {
                out.add(new Violation(p + "volumes[" + i + "].name", "duplicate volume name '" + name + "'"));
            }
        }
        Set<String> mounted = new java.util.HashSet<>();
        JsonNode containers = spec.path("containers");
        for (int c = 0; c < containers.size(); c++) {
            JsonNode mounts = containers.get(c).path("volumeMounts");
            Set<String> paths = new java.util.HashSet<>();
            for (int i = 0; i < mounts.size(); i++) {
                JsonNode m = mounts.get(i);
                String at = p + "containers[" + c + "].volumeMounts[" + i + "]";
                String name = m.path("name").asText("");
                mounted.add(name);
                JsonNode volume = volumes.get(name);
                if (volume == null) {
                    out.add(new Violation(at + ".name", "volumeMount has no matching volume"));
                } else if ((volume.has("secret") || volume.has("configMap") || volume.has("projected"))
                        && !m.path("readOnly").asBoolean(false)) {
                    out.add(new Violation(at + ".readOnly", "volume mount should be readOnly for this type of "
                            + "volume"));
                }
                String path = m.path("mountPath").asText("");
                String clean = path.replaceAll("/+$", "");
                if (!path.startsWith("/")) {
                    out.add(new Violation(at + ".mountPath", "must be an absolute path, got '" + path + "'"));
                } else if (clean.isEmpty() || clean.equals("/dev") || clean.equals("/dev/log")) {
                    out.add(new Violation(at + ".mountPath", "'" + path + "' is a reserved path"));
                } else if (!paths.add(clean)) {
                    out.add(new Violation(at + ".mountPath", "'" + path + "' must be unique"));
                }
            }
        }
        volumes.keySet().stream().filter(v -> !mounted.contains(v)).forEach(v -> out.add(new Violation(
                p + "volumes", "volume with name '" + v + "' not mounted")));
    }

    private void checkContainer(JsonNode c, String p, boolean serving, List<Violation> out) {
        if (c.path("image").asText("").isBlank()) {
            out.add(new Violation(p + "image", "an image is required"));
        }
        if ("queue-proxy".equals(c.path("name").asText())) {
            out.add(new Violation(p + "name", "'queue-proxy' is a reserved container name"));
        }
        JsonNode env = c.path("env");
        for (int i = 0; i < env.size(); i++) {
            String n = env.get(i).path("name").asText("");
            if (n.isEmpty()) {
                out.add(new Violation(p + "env[" + i + "].name", "missing"));
            } else if (RESERVED_ENV.contains(n)) {
                out.add(new Violation(p + "env[" + i + "].name", "'" + n + "' is a reserved environment variable"));
            }
        }
        String portName = "";
        JsonNode portsNode = c.path("ports");
        if (portsNode.size() > 0) {
            JsonNode port = portsNode.get(0);
            portName = port.path("name").asText("");
            if (!PORT_NAMES.contains(portName)) {
                out.add(new Violation(p + "ports[0].name", "port name '" + portName
                        + "' is not allowed: it must be empty, 'h2c' or 'http1'"));
            }
            String protocol = port.path("protocol").asText("");
            if (!protocol.isEmpty() && !protocol.equals("TCP")) {
                out.add(new Violation(p + "ports[0].protocol", "only TCP is allowed, got " + protocol));
            }
            int number = port.path("containerPort").asInt(0);
            if (RESERVED_PORTS.contains(number)) {
                out.add(new Violation(p + "ports[0].containerPort", number + " is a reserved port"));
            } else if (number < 0 || number > 65535) {
                out.add(new Violation(p + "ports[0].containerPort", "expected 0..65535, got " + number));
            }
        }
        if (serving) {
            checkProbe(c.get("livenessProbe"), p + "livenessProbe", portName, false, out);
            checkProbe(c.get("readinessProbe"), p + "readinessProbe", portName, true, out);
        }
    }

    private static void checkProbe(JsonNode probe, String p, String portName, boolean readiness,
            List<Violation> out) {
        if (probe == null) {
            return;
        }
        List<String> handlers = new ArrayList<>();
        for (String h : List.of("httpGet", "tcpSocket", "exec", "grpc")) {
            if (probe.has(h)) {
                handlers.add(h);
            }
        }
        if (handlers.size() != 1) {
            out.add(new Violation(p, "expected exactly one of httpGet, tcpSocket, exec, grpc; got " + handlers));
        }
        for (String h : List.of("httpGet", "tcpSocket")) {
            JsonNode port = probe.path(h).get("port");
            if (port != null && port.isTextual() && !port.asText().equals(portName)) {
                out.add(new Violation(p + "." + h + ".port", "probe port '" + port.asText()
                        + "' must match the container port name '" + portName + "'"));
            }
        }
        if (!readiness) {
            return;
        }
        int period = probe.path("periodSeconds").asInt(0);
        int failure = probe.path("failureThreshold").asInt(0);
        int timeout = probe.path("timeoutSeconds").asInt(0);
        if (period < 0) {
            out.add(new Violation(p + ".periodSeconds", "must be >= 0"));
        }
        if (probe.path("initialDelaySeconds").asInt(0) < 0) {
            out.add(new Violation(p + ".initialDelaySeconds", "must be >= 0"));
        }
        if (probe.has("successThreshold") && probe.path("successThreshold").asInt() < 1) {
            out.add(new Violation(p + ".successThreshold", "must be >= 1"));
        }
        if (period == 0) {
            // Knative's aggressive probing mode: the queue-proxy retries on its own schedule.
            if (failure != 0) {
                out.add(new Violation(p + ".failureThreshold", "is disallowed when periodSeconds is zero"));
            }
            if (timeout != 0) {
                out.add(new Violation(p + ".timeoutSeconds", "is disallowed when periodSeconds is zero"));
            }
        } else {
            if (probe.has("timeoutSeconds") && timeout < 1) {
                out.add(new Violation(p + ".timeoutSeconds", "must be >= 1 when periodSeconds is set"));
            }
            if (probe.has("failureThreshold") && failure < 1) {
                out.add(new Violation(p + ".failureThreshold", "must be >= 1 when periodSeconds is set"));
            }
        }
    }

    private void checkAutoscaling(Map<String, String> annotations, List<Violation> out) {
        String p = "spec.template.metadata.annotations.";
        Map<String, String> a = new java.util.HashMap<>();
        annotations.forEach((k, v) -> {
            if (!k.startsWith(AUTOSCALING)) {
                return;
            }
            String key = k.substring(AUTOSCALING.length());
            if (!AUTOSCALING_KEYS.contains(key)) {
                out.add(new Violation(p + k, "unknown autoscaling annotation (Knative would ignore it)"));
            } else {
                a.put(key, v);
            }
        });
        String cls = first(a, "class");
        if (cls != null && cls.endsWith("autoscaling.knative.dev") && !cls.equals(KPA) && !cls.equals(HPA)) {
            out.add(new Violation(p + AUTOSCALING + "class", "unknown class '" + cls + "'"));
        }
        Long min = intAtLeast0(a, p, out, "min-scale", "minScale");
        Long max = intAtLeast0(a, p, out, "max-scale", "maxScale");
        long minV = min == null ? 0 : min;
        long maxV = max == null ? 0 : max;
        if (maxV != 0 && maxV < minV) {
            out.add(new Violation(p + AUTOSCALING + "max-scale", "max-scale=" + maxV + " is less than min-scale="
                    + minV));
        }
        if (max != null && maxScaleLimit != 0 && (maxV == 0 || maxV > maxScaleLimit)) {
            out.add(new Violation(p + AUTOSCALING + "max-scale", "must be between 1 and max-scale-limit "
                    + maxScaleLimit));
        }
        String activation = first(a, "activation-scale");
        if (activation != null) {
            try {
                long nz = Long.parseLong(activation);
                if (minV > nz || (maxV != 0 && maxV < nz) || nz < 2) {
                    out.add(new Violation(p + AUTOSCALING + "activation-scale", "must be >= 2 and between min-scale "
                            + "and max-scale, got " + activation));
                }
            } catch (NumberFormatException e) {
                out.add(new Violation(p + AUTOSCALING + "activation-scale", "not an integer: " + activation));
            }
        }
        floatRange(a, p, out, 1, 100, "panic-window-percentage", "panicWindowPercentage");
        floatRange(a, p, out, 110, 1000, "panic-threshold-percentage", "panicThresholdPercentage");
        floatRange(a, p, out, 0.01, Double.MAX_VALUE, "target");
        floatRange(a, p, out, 1, 100, "target-utilization-percentage");
        String tbc = first(a, "target-burst-capacity");
        if (tbc != null) {
            try {
                double v = Double.parseDouble(tbc);
                if (v < 0 && v != -1) {
                    out.add(new Violation(p + AUTOSCALING + "target-burst-capacity", "must be >= 0 or -1, got " + tbc));
                }
            } catch (NumberFormatException e) {
                out.add(new Violation(p + AUTOSCALING + "target-burst-capacity", "not a number: " + tbc));
            }
        }
        duration(a, p, out, "window", WINDOW_MIN, WINDOW_MAX, true);
        duration(a, p, out, "scale-down-delay", Duration.ZERO, WINDOW_MAX, true);
        duration(a, p, out, "scale-to-zero-pod-retention-period", Duration.ZERO, WINDOW_MAX, false);
        String metric = first(a, "metric");
        if (metric != null) {
            String c = cls == null ? KPA : cls;
            boolean ok = c.equals(KPA) ? metric.equals("concurrency") || metric.equals("rps")
                    : !c.equals(HPA) || !metric.isEmpty();
            if (!ok) {
                out.add(new Violation(p + AUTOSCALING + "metric", "'" + metric + "' is not a metric of " + c));
            }
        }
        String algorithm = first(a, "metric-aggregation-algorithm");
        if (algorithm != null && KPA.equals(cls) && !Set.of("linear", "weighted-exponential", "weightedExponential")
                .contains(algorithm)) {
            out.add(new Violation(p + AUTOSCALING + "metric-aggregation-algorithm", "unknown value " + algorithm));
        }
        String initial = first(a, "initial-scale", "initialScale");
        if (initial != null) {
            try {
                int v = Integer.parseInt(initial);
                if (v < 0 || (v == 0 && !allowZeroInitialScale)) {
                    out.add(new Violation(p + AUTOSCALING + "initial-scale", v < 0 ? "must be >= 0"
                            : "initial-scale=0 is not allowed by the cluster (allow-zero-initial-scale)"));
                }
            } catch (NumberFormatException e) {
                out.add(new Violation(p + AUTOSCALING + "initial-scale", "not an integer: " + initial));
            }
        }
    }

    private static String first(Map<String, String> a, String... keys) {
        for (String k : keys) {
            if (a.containsKey(k)) {
                return a.get(k);
            }
        }
        return null;
    }

    private static Long intAtLeast0(Map<String, String> a, String p, List<Violation> out, String... keys) {
        String v = first(a, keys);
        if (v == null) {
            return null;
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0 || n > Integer.MAX_VALUE) {
                out.add(new Violation(p + AUTOSCALING + keys[0], "expected 0.." + Integer.MAX_VALUE + ", got " + v));
                return null;
            }
            return n;
        } catch (NumberFormatException e) {
            out.add(new Violation(p + AUTOSCALING + keys[0], "not an integer: '" + v + "'"));
            return null;
        }
    }

    private static void floatRange(Map<String, String> a, String p, List<Violation> out, double lo, double hi,
            String... keys) {
        String v = first(a, keys);
        if (v == null) {
            return;
        }
        try {
            double d = Double.parseDouble(v);
            if (d < lo || d > hi) {
                out.add(new Violation(p + AUTOSCALING + keys[0], "expected " + lo
                        + (hi == Double.MAX_VALUE ? " or more" : ".." + hi) + ", got " + v));
            }
        } catch (NumberFormatException e) {
            out.add(new Violation(p + AUTOSCALING + keys[0], "not a number: '" + v + "'"));
        }
    }

    private static void duration(Map<String, String> a, String p, List<Violation> out, String key, Duration lo,
            Duration hi, boolean wholeSeconds) {
        String v = a.get(key);
        if (v == null) {
            return;
        }
        try {
            Duration d = GoDuration.parse(v);
            if (d.compareTo(lo) < 0 || d.compareTo(hi) > 0) {
                out.add(new Violation(p + AUTOSCALING + key, "expected " + lo + ".." + hi + ", got " + v));
            } else if (wholeSeconds && d.getNano() != 0) {
                out.add(new Violation(p + AUTOSCALING + key, "must be specified with at most second precision, got "
                        + v));
            }
        } catch (IllegalArgumentException e) {
            out.add(new Violation(p + AUTOSCALING + key, e.getMessage()));
        }
    }
}
