package dev.tollgate.functions.alwayspullimages;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.MutatingPolicy;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.Verdict;

/**
 * The built-in AlwaysPullImages admission plugin as a webhook: every container of a new pod gets
 * {@code imagePullPolicy: Always}, so a cached image can only be used by someone allowed to pull it.
 *
 * <p>As upstream: only pods (core group), CREATE and UPDATE; an UPDATE that brings no image the pod did not already
 * reference is left alone; containers, initContainers and ephemeralContainers are all covered. Beyond upstream (on
 * by default, see {@code tollgate.always-pull-images.ephemeral-containers-subresource}): the
 * {@code pods/ephemeralcontainers} subresource, the only way ephemeral debug containers are added, which upstream
 * skips; there only {@code ephemeralContainers} are touched, as that subresource may change nothing else.
 */
@ApplicationScoped
public class AlwaysPullImages implements MutatingPolicy {

    static final String ALWAYS = "Always";
    private static final List<String> ALL_CONTAINER_LISTS = List.of("initContainers", "containers",
            "ephemeralContainers");
    private static final String EPHEMERAL_SUBRESOURCE = "ephemeralcontainers";

    private final boolean coverEphemeralSubresource;

    @Inject
    public AlwaysPullImages(@ConfigProperty(name = "tollgate.always-pull-images.ephemeral-containers-subresource",
            defaultValue = "true") boolean coverEphemeralSubresource) {
        this.coverEphemeralSubresource = coverEphemeralSubresource;
    }

    @Override
    public Verdict mutate(AdmissionRequest request, ObjectNode pod) {
        List<String> lists = containerListsToCover(request);
        if (lists.isEmpty() || pod == null || !pod.path("spec").isObject()) {
            return Verdict.allow();
        }
        if (request.operation() == Operation.UPDATE && request.oldObject() != null
                && !hasNewImage(pod, request.oldObject().json())) {
            return Verdict.allow();
        }
        JsonNode spec = pod.get("spec");
        for (String list : lists) {
            for (JsonNode container : spec.path(list)) {
                if (container.isObject() && !ALWAYS.equals(container.path("imagePullPolicy").asText(null))) {
                    ((ObjectNode) container).put("imagePullPolicy", ALWAYS);
                }
            }
        }
        return Verdict.allow();
    }

    /** Which container lists this request may change; empty when the plugin does not apply. */
    private List<String> containerListsToCover(AdmissionRequest request) {
        boolean isPod = request.resource().group().isEmpty() && request.resource().resource().equals("pods");
        boolean createOrUpdate = request.operation() == Operation.CREATE || request.operation() == Operation.UPDATE;
        if (!isPod || !createOrUpdate) {
            return List.of();
        }
        if (request.isMainResource()) {
            return ALL_CONTAINER_LISTS;
        }
        if (coverEphemeralSubresource && request.subResource().equals(EPHEMERAL_SUBRESOURCE)) {
            return List.of("ephemeralContainers");
        }
        return List.of();
    }

    /** True when the new pod references an image that the old pod did not (upstream's isUpdateWithNoNewImages). */
    private static boolean hasNewImage(JsonNode pod, JsonNode oldPod) {
        Set<String> oldImages = new HashSet<>();
        for (String list : ALL_CONTAINER_LISTS) {
            oldPod.path("spec").path(list).forEach(c -> oldImages.add(c.path("image").asText("")));
        }
        for (String list : ALL_CONTAINER_LISTS) {
            for (JsonNode c : pod.path("spec").path(list)) {
                if (!oldImages.contains(c.path("image").asText(""))) {
                    return true;
                }
            }
        }
        return false;
    }
}
