package dev.tollgate.knative;

import java.util.List;
import java.util.stream.Collectors;

import io.fabric8.knative.pkg.apis.Condition;
import io.fabric8.knative.serving.v1.Service;

/**
 * What the cluster says about one function's Knative Service.
 *
 * @param name           the service name
 * @param exists         false when there is no such service
 * @param ready          the Ready condition's status (True, False, Unknown; "" when Knative reported none yet)
 * @param current        whether that status describes the latest spec (status.observedGeneration caught up)
 * @param url            status.url, or "" before Knative assigned one
 * @param latestRevision status.latestReadyRevisionName, or ""
 * @param conditions     every condition, for error messages
 */
public record ServiceState(String name, boolean exists, String ready, boolean current, String url,
        String latestRevision, List<Condition> conditions) {

    static ServiceState missing(String name) {
        return new ServiceState(name, false, "", false, "", "", List.of());
    }

    static ServiceState of(String name, Service svc) {
        if (svc == null) {
            return missing(name);
        }
        var status = svc.getStatus();
        List<Condition> conditions = status == null || status.getConditions() == null ? List.of()
                : List.copyOf(status.getConditions());
        String ready = conditions.stream().filter(c -> "Ready".equals(c.getType())).map(Condition::getStatus)
                .findFirst().orElse("");
        Long generation = svc.getMetadata() == null ? null : svc.getMetadata().getGeneration();
        Long observed = status == null ? null : status.getObservedGeneration();
        boolean current = generation == null || (observed != null && observed >= generation);
        return new ServiceState(name, true, ready, current, status == null || status.getUrl() == null ? ""
                : status.getUrl(), status == null || status.getLatestReadyRevisionName() == null ? ""
                        : status.getLatestReadyRevisionName(), conditions);
    }

    public boolean isReady() {
        return exists && current && "True".equals(ready);
    }

    public boolean isFailed() {
        return exists && current && "False".equals(ready);
    }

    /** One line: Ready status plus the Ready condition's reason and message. */
    public String summary() {
        if (!exists) {
            return "not deployed";
        }
        if (ready.isEmpty()) {
            return "Ready=? (Knative has not reported a status yet)";
        }
        Condition r = conditions.stream().filter(c -> "Ready".equals(c.getType())).findFirst().orElseThrow();
        return "Ready=" + ready + (current ? "" : " (for an older generation)") + describe(r);
    }

    /** Every condition, e.g. {@code ConfigurationsReady=False (RevisionFailed: ...)}. */
    public String conditionList() {
        if (conditions.isEmpty()) {
            return "no conditions reported";
        }
        return conditions.stream().map(c -> c.getType() + "=" + c.getStatus() + describe(c))
                .collect(Collectors.joining("; "));
    }

    private static String describe(Condition c) {
        String reason = c.getReason() == null ? "" : c.getReason();
        String message = c.getMessage() == null ? "" : c.getMessage();
        if (reason.isEmpty() && message.isEmpty()) {
            return "";
        }
        return " (" + reason + (reason.isEmpty() || message.isEmpty() ? "" : ": ") + message + ")";
    }
}
