package dev.tollgate.admission;

import java.util.Map;

import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * A policy's decision and what is answered for it under an {@link EnforcementMode}:
 * <ul>
 * <li>{@code enforce}: the decision as it is.</li>
 * <li>{@code warn}: a denial is answered allowed, with the warning {@code Validation failed for function '<fn>':
 * <message>} ahead of the policy's own; a patch is applied as in enforce.</li>
 * <li>{@code audit}: a denial is answered allowed with the audit annotation {@value #WOULD_DENY} (the message); a
 * patch is not applied but recorded as {@value #WOULD_PATCH} (the JSON Patch). The policy's warnings and audit
 * annotations are kept.</li>
 * </ul>
 * The API server records each audit annotation as {@code <webhook name>/<key>} after checking the whole key is a
 * qualified name (k8s.io/apiserver pkg/admission/plugin/webhook/validating/dispatcher.go and mutating/dispatcher.go:
 * {@code key := h.Name + "/" + k}; pkg/admission/attributes.go {@code checkKeyFormat}), so both keys are valid name
 * parts. It sets no limit on a webhook's values; its ValidatingAdmissionPolicy cuts values at 10 KiB
 * (pkg/admission/plugin/policy/validating/dispatcher.go, {@code maxAuditAnnotationValueLength}), and an audit event
 * over the backend's size limit is dropped whole (plugin/pkg/audit/truncate/truncate.go), so values here are cut there
 * too.
 *
 * @param mode     the mode applied
 * @param decided  the policy's verdict
 * @param patch    the patch the policy's edits amount to, or null (a validating policy, or a denial)
 * @param answered the verdict sent
 * @param sent     the patch sent: {@code patch}, or null in audit
 */
public record EnforcedVerdict(EnforcementMode mode, Verdict decided, ArrayNode patch, Verdict answered,
        ArrayNode sent) {

    public static final String WOULD_DENY = "would_deny";
    public static final String WOULD_PATCH = "would_patch";
    /** How the warning starts that warn mode answers a denial with. */
    public static final String WARNING_PREFIX = "Validation failed for function '";
    /** The longest audit annotation value written, as the API server's own admission policies cut theirs. */
    public static final int MAX_ANNOTATION_VALUE_LENGTH = 10 * 1024;

    /** What {@code function}'s verdict (and patch) become under {@code mode}. */
    public static EnforcedVerdict of(EnforcementMode mode, String function, Verdict decided, ArrayNode patch) {
        boolean patches = patch != null && !patch.isEmpty();
        return switch (mode) {
            case ENFORCE -> new EnforcedVerdict(mode, decided, patch, decided, patch);
            case WARN -> decided.allowed() ? new EnforcedVerdict(mode, decided, patch, decided, patch)
                    : new EnforcedVerdict(mode, decided, patch, kept(decided, Verdict.allow()
                            .withWarning(WARNING_PREFIX + function + "': " + decided.message())),
                            null);
            case AUDIT -> {
                if (!decided.allowed()) {
                    yield new EnforcedVerdict(mode, decided, patch,
                            kept(decided, Verdict.allow()).withAuditAnnotation(WOULD_DENY, cut(decided.message())),
                            null);
                }
                yield patches ? new EnforcedVerdict(mode, decided, patch,
                        decided.withAuditAnnotation(WOULD_PATCH, cut(patch.toString())), null)
                        : new EnforcedVerdict(mode, decided, patch, decided, patch);
            }
        };
    }

    /** What the policy decided: denied, patched (allowed with a non-empty patch) or allowed. */
    public HandlerResult.Outcome decision() {
        return outcome(decided, patch);
    }

    /** What is answered: denied, patched or allowed. */
    public HandlerResult.Outcome answer() {
        return outcome(answered, sent);
    }

    private static HandlerResult.Outcome outcome(Verdict verdict, ArrayNode patch) {
        return !verdict.allowed() ? HandlerResult.Outcome.DENIED
                : patch != null && !patch.isEmpty() ? HandlerResult.Outcome.PATCHED : HandlerResult.Outcome.ALLOWED;
    }

    /** {@code into} with the decision's warnings and audit annotations. */
    private static Verdict kept(Verdict decided, Verdict into) {
        Verdict v = into.withWarnings(decided.warnings());
        for (Map.Entry<String, String> a : decided.auditAnnotations().entrySet()) {
            v = v.withAuditAnnotation(a.getKey(), a.getValue());
        }
        return v;
    }

    private static String cut(String value) {
        if (value.length() <= MAX_ANNOTATION_VALUE_LENGTH) {
            return value;
        }
        int end = MAX_ANNOTATION_VALUE_LENGTH;
        return value.substring(0, Character.isHighSurrogate(value.charAt(end - 1)) ? end - 1 : end);
    }
}
