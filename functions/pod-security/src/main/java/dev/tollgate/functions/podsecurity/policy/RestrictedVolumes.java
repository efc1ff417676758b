package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/**
 * Restricted, v1.0+: only volume types that do not reach outside the pod's own storage are allowed. It replaces
 * hostPathVolumes at the restricted level (a hostPath volume is reported here as a restricted type). A volume
 * without a source is an emptyDir (the API server defaults it so). {@code image} volumes are allowed at every
 * version, as upstream amended this check in place.
 */
final class RestrictedVolumes {

    static final Set<String> ALLOWED = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "image",
            "persistentVolumeClaim", "projected", "secret");

    static final Check CHECK = new Check("restrictedVolumes", Level.RESTRICTED,
            List.of(since(0, RestrictedVolumes::v1_0, HostPathVolumes.ID)));

    private RestrictedVolumes() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        TreeSet<String> types = new TreeSet<>();
        for (JsonNode volume : pod.spec().path("volumes")) {
            String forbidden = forbiddenSource(volume);
            if (forbidden != null) {
                bad.add(Pod.text(volume.path("name")));
                types.add(forbidden);
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("restricted volume types", Messages.pluralize("volume", "volumes", bad.size())
                        + " " + Messages.joinQuote(bad) + " " + Messages.pluralize("uses", "use", bad.size()) + " "
                        + Messages.pluralize("restricted volume type", "restricted volume types", types.size()) + " "
                        + Messages.joinQuote(types));
    }

    /** The volume's source type when it is not an allowed one; null when allowed. Source field names are types. */
    private static String forbiddenSource(JsonNode volume) {
        String forbidden = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = volume.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equals("name") || field.getValue().isNull()) {
                continue;
            }
            if (ALLOWED.contains(field.getKey())) {
                return null;
            }
            if (forbidden == null) {
                forbidden = field.getKey();
            }
        }
        return forbidden;
    }
}
