package dev.tollgate.admission;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.exceptions.RequestException;

/**
 * One admission call ({@link ReviewHandler}): the policy validates, or mutates a deep copy of the object and the
 * patch is computed from its edits; the verdict is answered under the enforcement mode of the caller's cluster
 * ({@link EnforcedVerdict}) and encoded in the version received. A policy that throws gets a 500 and is never turned
 * into an allow, whatever the mode. A request an exception describes is allowed without running the policy, with the
 * audit annotation {@value #EXCEPTED_BY} naming the exception (the API server records it as
 * {@code <webhook name>/excepted_by}). A review from a named cluster (one of several the function serves) is
 * answered with the audit annotation {@value #CLUSTER} naming it, so the cluster's own audit log shows which of the
 * function's clusters it was taken for (the name in the function's decision log and metrics); a policy's own
 * {@value #CLUSTER} annotation is kept.
 */
public final class AdmissionHandler extends ReviewHandler<AdmissionReview, AdmissionPolicy, AdmissionCodec> {

    public static final String EXCEPTED_BY = "excepted_by";
    public static final String CLUSTER = "cluster";

    /** The mode of a call: by function and caller's cluster. */
    private final BiFunction<String, String, EnforcementMode> modes;
    private final BiFunction<String, AdmissionRequest, Optional<RequestException>> exceptions;

    /** Every verdict enforced. */
    public AdmissionHandler(AdmissionCodec codec) {
        this(codec, cluster -> EnforcementMode.ENFORCE);
    }

    /** @param modes the enforcement mode for the caller's cluster ({@link AdmissionRequest#cluster()}) */
    public AdmissionHandler(AdmissionCodec codec, Function<String, EnforcementMode> modes) {
        this(codec, modes, (function, request) -> Optional.empty());
    }

    /**
     * @param exceptions the exception that describes a request to a function, if any: that request is allowed
     *                   without running the policy
     */
    public AdmissionHandler(AdmissionCodec codec, Function<String, EnforcementMode> modes,
            BiFunction<String, AdmissionRequest, Optional<RequestException>> exceptions) {
        this(codec, exceptions, modeOfCluster(modes));
    }

    private AdmissionHandler(AdmissionCodec codec,
            BiFunction<String, AdmissionRequest, Optional<RequestException>> exceptions,
            BiFunction<String, String, EnforcementMode> modes) {
        super(codec);
        this.modes = Objects.requireNonNull(modes, "modes");
        this.exceptions = Objects.requireNonNull(exceptions, "exceptions");
    }

    private static BiFunction<String, String, EnforcementMode> modeOfCluster(Function<String, EnforcementMode> m) {
        Objects.requireNonNull(m, "modes");
        return (function, cluster) -> m.apply(cluster);
    }

    /**
     * A handler whose mode is per function and cluster: one process serving several functions (the all-in-one
     * bundle) gives each its own mode for each caller's cluster.
     *
     * @param modes the enforcement mode of a call, by function name and caller's cluster
     */
    public static AdmissionHandler perFunction(AdmissionCodec codec, BiFunction<String, String, EnforcementMode> modes,
            BiFunction<String, AdmissionRequest, Optional<RequestException>> exceptions) {
        return new AdmissionHandler(codec, exceptions, modes);
    }

    @Override
    protected HandlerResult<AdmissionReview> run(AdmissionReview review, String function, AdmissionPolicy policy) {
        AdmissionRequest request = review.request();
        Optional<RequestException> exception = exceptions.apply(function, request);
        if (exception.isPresent()) {
            Verdict allowed = named(Verdict.allow().withAuditAnnotation(EXCEPTED_BY, exception.get().name()), request);
            return result(200, codec().encode(review.version(), review.uid(), allowed, null),
                    HandlerResult.Outcome.ALLOWED, review, allowed, 0, "", HandlerResult.Outcome.EXCEPTED);
        }
        Verdict verdict;
        ArrayNode patch = null;
        if (policy instanceof ValidatingPolicy validating) {
            verdict = validating.validate(request);
        } else {
            MutatingPolicy mutating = (MutatingPolicy) policy;
            ObjectNode edited = request.object() == null ? null : request.object().json().deepCopy();
            verdict = mutating.mutate(request, edited);
            if (verdict != null && verdict.allowed() && edited != null) {
                patch = JsonPatches.diff(request.object().json(), edited);
            }
        }
        if (verdict == null) {
            throw new IllegalStateException("policy returned no verdict");
        }
        EnforcementMode mode = modes.apply(function, request.cluster());
        EnforcedVerdict enforced = EnforcedVerdict.of(mode, function, verdict, patch);
        Verdict answered = named(enforced.answered(), request);
        byte[] out = codec().encode(review.version(), review.uid(), answered, enforced.sent());
        int ops = enforced.sent() == null ? 0 : enforced.sent().size();
        return result(200, out, enforced.answer(), review, answered, ops, "", enforced.decision(), mode);
    }

    /** The mode of a call that did not get the policy's verdict (an error): its cluster's, whatever the function. */
    @Override
    protected EnforcementMode enforcement(AdmissionReview review) {
        return modes.apply("", review.request().cluster());
    }

    /** The configured verdict in the review's version (not the policy's: answered as it is), or (null) an error. */
    @Override
    public HandlerResult<AdmissionReview> timedOut(AdmissionReview review, Verdict verdict, String message) {
        return verdict == null ? super.timedOut(review, null, message)
                : answer(review, named(verdict, review.request()), null);
    }

    private static Verdict named(Verdict verdict, AdmissionRequest request) {
        String cluster = request.cluster();
        return cluster.equals(AdmissionRequest.DEFAULT_CLUSTER) || verdict.auditAnnotations().containsKey(CLUSTER)
                ? verdict : verdict.withAuditAnnotation(CLUSTER, cluster);
    }

    private HandlerResult<AdmissionReview> answer(AdmissionReview review, Verdict verdict, ArrayNode patch) {
        byte[] out = codec().encode(review.version(), review.uid(), verdict, patch);
        int ops = patch == null ? 0 : patch.size();
        HandlerResult.Outcome outcome = !verdict.allowed() ? HandlerResult.Outcome.DENIED
                : ops > 0 ? HandlerResult.Outcome.PATCHED : HandlerResult.Outcome.ALLOWED;
        return result(200, out, outcome, review, verdict, ops, "");
    }
}
