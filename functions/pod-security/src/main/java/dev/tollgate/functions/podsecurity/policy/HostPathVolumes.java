package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.Check.since;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.functions.podsecurity.Level;

/** Baseline, v1.0+: hostPath volumes are forbidden. */
final class HostPathVolumes {

    static final String ID = "hostPathVolumes";
    static final Check CHECK = new Check(ID, Level.BASELINE, List.of(since(0, HostPathVolumes::v1_0)));

    private HostPathVolumes() {
    }

    static CheckResult v1_0(Pod pod) {
        List<String> bad = new ArrayList<>();
        for (JsonNode volume : pod.spec().path("volumes")) {
            if (Pod.isSet(volume.path("hostPath"))) {
                bad.add(Pod.text(volume.path("name")));
            }
        }
        return bad.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("hostPath volumes",
                        Messages.pluralize("volume", "volumes", bad.size()) + " " + Messages.joinQuote(bad));
    }
}
