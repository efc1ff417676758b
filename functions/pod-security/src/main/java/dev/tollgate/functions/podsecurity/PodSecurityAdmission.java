package dev.tollgate.functions.podsecurity;

import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.KubeObject;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.Verdict;
import dev.tollgate.functions.podsecurity.policy.CheckRegistry;
import dev.tollgate.functions.podsecurity.policy.Evaluation;
import dev.tollgate.functions.podsecurity.policy.Pod;

/**
 * Pod Security admission for one request under a {@link Policy}, following upstream's plugin: which requests are
 * evaluated, exemptions, which updates matter, and how each mode reports.
 *
 * <ul>
 * <li>Pods, on CREATE and UPDATE, including pod subresources that carry a pod (such as {@code ephemeralcontainers});
 * subresources that cannot change the pod spec ({@code status}, {@code exec}, ...) are skipped. An UPDATE is
 * evaluated only when it adds or removes containers, changes an image or a container seccomp annotation.</li>
 * <li>Workload resources with a pod template: warn and audit only, never denied.</li>
 * <li>enforce denies with 403 and {@code pods "<name>" is forbidden: violates PodSecurity "<level>:<version>":
 * <check> (<details>), ...}; warn adds the warning {@code would violate PodSecurity ...} (not when the request is
 * denied); audit adds the audit annotation {@code audit-violations}. Enforce also records {@code enforce-policy}
 * and exemptions record {@code exempt}. The API server prefixes these keys with the webhook name.</li>
 * </ul>
 */
public final class PodSecurityAdmission {

    /** Audit annotation keys (upstream's, without the {@code pod-security.kubernetes.io/} prefix). */
    public static final String ENFORCE_POLICY = "enforce-policy";
    public static final String AUDIT_VIOLATIONS = "audit-violations";
    public static final String EXEMPT = "exempt";
    public static final String ERROR = "error";

    // Pod subresources whose requests cannot change what the checks read. Any other one is evaluated, so that an
    // unknown subresource able to change the pod spec is checked rather than let through.
    private static final Set<String> IGNORED_POD_SUBRESOURCES = Set.of("exec", "attach", "binding", "eviction", "log",
            "portforward", "proxy", "status");

    private final Exemptions exemptions;
    private final CheckRegistry checks;

    public PodSecurityAdmission(Exemptions exemptions, CheckRegistry checks) {
        this.exemptions = Objects.requireNonNull(exemptions, "exemptions");
        this.checks = Objects.requireNonNull(checks, "checks");
    }

    public CheckRegistry checks() {
        return checks;
    }

    public Verdict admit(AdmissionRequest request, Policy policy) {
        if (request.operation() != Operation.CREATE && request.operation() != Operation.UPDATE) {
            return Verdict.allow();
        }
        GroupVersionResource resource = request.resource();
        if (resource.group().isEmpty() && resource.resource().equals("pods")) {
            return admitPod(request, policy);
        }
        if (PodTemplates.hasTemplate(resource)) {
            return admitTemplate(request, policy);
        }
        return Verdict.allow();
    }

    private Verdict admitPod(AdmissionRequest request, Policy policy) {
        if (IGNORED_POD_SUBRESOURCES.contains(request.subResource())) {
            return Verdict.allow();
        }
        Verdict exempt = exemptRequest(request);
        if (exempt != null) {
            return exempt;
        }
        if (policy.fullyPrivileged()) {
            return Verdict.allow();
        }
        KubeObject pod = request.object();
        if (pod == null) {
            return Verdict.deny(400, "failed to decode object").withAuditAnnotation(ERROR,
                    "failed to decode object: the request has no object");
        }
        if (request.operation() == Operation.UPDATE) {
            KubeObject oldPod = request.oldObject();
            if (oldPod == null) {
                return Verdict.deny(400, "failed to decode old object").withAuditAnnotation(ERROR,
                        "failed to decode old object: the update has no oldObject");
            }
            if (!PodUpdates.significant(pod.json(), oldPod.json())) {
                return Verdict.allow();
            }
        }
        return evaluate(request, policy, Pod.of(pod.json()), true);
    }

    private Verdict admitTemplate(AdmissionRequest request, Policy policy) {
        if (!request.subResource().isEmpty()) {
            return Verdict.allow();
        }
        Verdict exempt = exemptRequest(request);
        if (exempt != null) {
            return exempt;
        }
        if (policy.auditAndWarnPrivileged()) {
            return Verdict.allow();
        }
        if (request.object() == null) {
            return Verdict.allow().withAuditAnnotation(ERROR, "failed to decode object: the request has no object");
        }
        JsonNode template = PodTemplates.template(request.resource(), request.object().json());
        if (template == null) {
            return Verdict.allow();
        }
        return evaluate(request, policy, Pod.of(template), false);
    }

    private Verdict exemptRequest(AdmissionRequest request) {
        if (exemptions.namespace(request.namespace())) {
            return Verdict.allow().withAuditAnnotation(EXEMPT, "namespace");
        }
        if (exemptions.user(request.userInfo().username())) {
            return Verdict.allow().withAuditAnnotation(EXEMPT, "user");
        }
        return null;
    }

    private Verdict evaluate(AdmissionRequest request, Policy policy, Pod pod, boolean enforce) {
        if (exemptions.runtimeClass(pod.spec().path("runtimeClassName").asText(""))) {
            return Verdict.allow().withAuditAnnotation(EXEMPT, "runtimeClass");
        }
        Verdict verdict = Verdict.allow();
        Evaluation enforced = null;
        if (enforce && policy.enforce() != null) {
            enforced = checks.evaluate(policy.enforce(), pod);
            if (!enforced.allowed()) {
                verdict = Verdict.deny(403, forbiddenMessage(request, policy.enforce(), enforced));
            }
            verdict = verdict.withAuditAnnotation(ENFORCE_POLICY, policy.enforce().toString());
        }
        if (policy.audit() != null) {
            Evaluation audited = policy.audit().equals(enforce ? policy.enforce() : null) ? enforced
                    : checks.evaluate(policy.audit(), pod);
            if (!audited.allowed()) {
                verdict = verdict.withAuditAnnotation(AUDIT_VIOLATIONS, wouldViolate(policy.audit(), audited));
            }
        }
        // No warnings on a request that is denied anyway.
        if (policy.warn() != null && verdict.allowed()) {
            Evaluation warned = checks.evaluate(policy.warn(), pod);
            if (!warned.allowed()) {
                verdict = verdict.withWarning(wouldViolate(policy.warn(), warned));
            }
        }
        return verdict;
    }

    /** Upstream's Forbidden status message: {@code pods "web" is forbidden: violates PodSecurity "...": ...}. */
    static String forbiddenMessage(AdmissionRequest request, LevelVersion levelVersion, Evaluation evaluation) {
        GroupVersionResource r = request.resource();
        String resource = r.group().isEmpty() ? r.resource() : r.resource() + "." + r.group();
        String subject = request.name().isEmpty() ? resource : resource + " \"" + request.name() + "\"";
        return subject + " is forbidden: violates PodSecurity \"" + levelVersion + "\": "
                + evaluation.forbiddenDetail();
    }

    static String wouldViolate(LevelVersion levelVersion, Evaluation evaluation) {
        return "would violate PodSecurity \"" + levelVersion + "\": " + evaluation.forbiddenDetail();
    }
}
