#if ($type == 'mutating')
package ${package};

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.Verdict;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * Gives every object it sees the default labels it lacks ({@code tollgate.${artifactId}.default-labels}, e.g.
 * {@code team=unassigned}); a label the object already has keeps its value, so applying the policy twice changes
 * nothing. Which objects it sees is decided by its registration (webhook.yaml).
 *
 * <p>This is the example rule the Tollgate archetype generated: replace the body of the {@code mutate} method with
 * your own. Edit {@code object} in place and return a verdict; the library turns the edits into the JSON Patch (never
 * write patch paths by hand), and {@code request} stays read-only. Return {@code Verdict.deny(...)} to refuse instead.
 */
@ApplicationScoped
public class ${className} implements MutatingPolicy {

    private final Map<String, String> defaultLabels;

    @Inject
    public ${className}(@ConfigProperty(name = "tollgate.${artifactId}.default-labels") List<String> defaultLabels) {
        this.defaultLabels = parse(defaultLabels);
    }

    @Override
    public Verdict mutate(AdmissionRequest request, ObjectNode object) {
        boolean createOrUpdate = request.operation() == Operation.CREATE || request.operation() == Operation.UPDATE;
        // Subresources (status, scale, ...) carry other objects than the resource itself: leave them alone.
        if (!createOrUpdate || object == null || !request.isMainResource() || !object.path("metadata").isObject()) {
            return Verdict.allow();
        }
        ObjectNode metadata = (ObjectNode) object.get("metadata");
        JsonNode labels = metadata.path("labels");
        for (Map.Entry<String, String> label : defaultLabels.entrySet()) {
            if (!labels.has(label.getKey())) {
                // Created only when a label is missing: an untouched object must produce no patch at all.
                labels = metadata.withObjectProperty("labels");
                ((ObjectNode) labels).put(label.getKey(), label.getValue());
            }
        }
        return Verdict.allow();
    }

    /** {@code key=value} pairs, checked as the API server would, so a typo stops the function at startup. */
    static Map<String, String> parse(List<String> pairs) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String pair : pairs == null ? List.<String>of() : pairs) {
            String trimmed = pair.strip();
            int eq = trimmed.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("${artifactId}: default label '" + trimmed
                        + "' must be key=value (tollgate.${artifactId}.default-labels)");
            }
            String key = trimmed.substring(0, eq).strip();
            String value = trimmed.substring(eq + 1).strip();
            if (!LabelSyntax.isQualifiedName(key)) {
                throw new IllegalArgumentException("${artifactId}: '" + key + "' is not a valid label key");
            }
            if (!LabelSyntax.isLabelValue(value)) {
                throw new IllegalArgumentException("${artifactId}: '" + value + "' is not a valid label value");
            }
            labels.put(key, value);
        }
        if (labels.isEmpty()) {
            throw new IllegalArgumentException("${artifactId}: set tollgate.${artifactId}.default-labels to at "
                    + "least one key=value pair");
        }
        return Collections.unmodifiableMap(labels);
    }
}
#elseif ($type == 'conversion')
#set ($crdGroup = $crd.substring($crd.indexOf('.') + 1))
#set ($versionList = [])
#foreach ($raw in $versions.split(','))
#set ($ignored = $versionList.add($raw.trim()))
#end
package ${package};

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.conversion.ConversionException;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * The CRD conversion webhook of {@code ${crd}}: converts its objects between the versions in {@code VERSIONS}
 * (oldest first). The API server calls it whenever it reads or writes an object in a version other than the one
 * stored; the library decodes the ConversionReview, calls {@code convert} once per object and checks each result
 * against the API server's rules (same kind, only labels and annotations of metadata changed, ...).
 *
 * <p>This is the example rule the Tollgate archetype generated: in the newest version {@code spec.size} is called
 * {@code spec.replicas}; everything else is the same in every version. Replace the body of {@code convert} with your
 * own. Keep it lossless both ways: what an older version cannot hold goes into an annotation and comes back from it.
 * Throw a {@link ConversionException} for an object you cannot convert: the whole review fails with its message.
 */
@ApplicationScoped
public class ${className} implements ConversionPolicy {

    public static final String GROUP = "${crdGroup}";
    /** The CRD's versions, oldest first (webhook.yaml lists the same). */
    public static final List<String> VERSIONS = List.of(#foreach ($v in $versionList)"$v"#if ($foreach.hasNext), #end#end);
    static final String NEWEST = VERSIONS.get(VERSIONS.size() - 1);

    @Override
    public ObjectNode convert(ObjectNode object, String desiredApiVersion) throws ConversionException {
        String from = version(object.path("apiVersion").asText(""));
        String to = version(desiredApiVersion);
        if (object.path("spec").isObject()) {
            ObjectNode spec = (ObjectNode) object.get("spec");
            if (from.equals(NEWEST) && !to.equals(NEWEST) && spec.has("replicas")) {
                spec.set("size", spec.remove("replicas"));
            } else if (!from.equals(NEWEST) && to.equals(NEWEST) && spec.has("size")) {
                spec.set("replicas", spec.remove("size"));
            }
        }
        return object.put("apiVersion", desiredApiVersion);
    }

    /** The version of one of this CRD's apiVersions ({@code <group>/<version>}); anything else is refused. */
    private static String version(String apiVersion) throws ConversionException {
        int slash = apiVersion.indexOf('/');
        if (slash < 0 || !apiVersion.substring(0, slash).equals(GROUP)
                || !VERSIONS.contains(apiVersion.substring(slash + 1))) {
            throw new ConversionException("apiVersion " + apiVersion + " is not one of " + GROUP + "/"
                    + String.join(", ", VERSIONS));
        }
        return apiVersion.substring(slash + 1);
    }
}
#else
package ${package};

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.ValidatingPolicy;
import dev.tollgate.admission.Verdict;

/**
 * Denies pods, and workloads whose pod template would create such pods, when a container image is not pinned: it has
 * no tag (which means {@code latest}) or a tag listed in {@code tollgate.${artifactId}.denied-tags}. An image pinned
 * by digest ({@code @sha256:...}) always passes. Objects without a pod spec are allowed. Which objects it sees is
 * decided by its registration (webhook.yaml).
 *
 * <p>This is the example rule the Tollgate archetype generated: replace the body of the {@code validate} method with
 * your own. Return {@code Verdict.allow()}, optionally {@code .withWarning(...)}, or {@code Verdict.deny(...)} with a
 * message that tells the user what to change.
 */
@ApplicationScoped
public class ${className} implements ValidatingPolicy {

    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers",
            "ephemeralContainers");
    /** The tag grammar of the OCI distribution spec. */
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    private final Set<String> deniedTags;

    @Inject
    public ${className}(@ConfigProperty(name = "tollgate.${artifactId}.denied-tags", defaultValue = "latest")
            List<String> deniedTags) {
        List<String> tags = deniedTags == null ? List.of()
                : deniedTags.stream().map(String::strip).filter(t -> !t.isEmpty()).toList();
        for (String tag : tags) {
            if (!TAG.matcher(tag).matches()) {
                throw new IllegalArgumentException("${artifactId}: '" + tag + "' is not a valid image tag "
                        + "(tollgate.${artifactId}.denied-tags)");
            }
        }
        this.deniedTags = Set.copyOf(tags);
    }

    @Override
    public Verdict validate(AdmissionRequest request) {
        boolean createOrUpdate = request.operation() == Operation.CREATE || request.operation() == Operation.UPDATE;
        if (!createOrUpdate || request.object() == null || !request.isMainResource()) {
            return Verdict.allow();
        }
        KubeObject object = request.object();
        JsonNode podSpec = podSpecOf(object);
        List<String> unpinned = new ArrayList<>();
        for (String list : CONTAINER_LISTS) {
            for (JsonNode container : podSpec.path(list)) {
                String image = container.path("image").asText("");
                if (!isPinned(image)) {
                    unpinned.add(container.path("name").asText("?") + " (" + image + ")");
                }
            }
        }
        if (unpinned.isEmpty()) {
            return Verdict.allow();
        }
        String name = object.name().isEmpty() ? object.generateName() + "*" : object.name();
        return Verdict.deny(object.kind() + " \"" + name + "\" uses unpinned image"
                + (unpinned.size() == 1 ? " " : "s ") + String.join(", ", unpinned)
                + ": pin a version tag or a digest" + (deniedTags.isEmpty() ? "" : " (not " + String.join(", ",
                        deniedTags.stream().sorted().toList()) + ")"));
    }

    /** The pod spec of a Pod, of a workload's pod template, or of a CronJob's job template; missing node if none. */
    static JsonNode podSpecOf(KubeObject object) {
        JsonNode json = object.json();
        return switch (object.kind()) {
            case "Pod" -> json.path("spec");
            case "PodTemplate" -> json.path("template").path("spec");
            case "CronJob" -> json.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
            default -> json.path("spec").path("template").path("spec");
        };
    }

    /** True when the image names a digest, or a tag that is not denied. No tag means latest: never pinned. */
    boolean isPinned(String image) {
        if (image.contains("@")) {
            return true;
        }
        int lastSlash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        // A colon before the last slash belongs to a registry port (registry:5000/app), not a tag.
        if (colon <= lastSlash) {
            return false;
        }
        String tag = image.substring(colon + 1);
        return !tag.isEmpty() && !deniedTags.contains(tag);
    }
}
#end
