package dev.tollgate.cel.admission;

import dev.tollgate.admission.Verdict;

/**
 * A namespace could not be found or read. Carries what the API server would have: the {@code Status} of a failed
 * GET (code, reason, message), or no status when the API could not be reached at all. How a caller reports it
 * depends on where the namespace was needed; see {@link #selectorMessage()} and the functions' namespaceObject.
 */
public final class NamespaceLookupException extends RuntimeException {

    private final int code;
    private final String reason;

    /**
     * @param code   the HTTP status of the API's answer, or 0 when there was no answer (connection, timeout)
     * @param reason the Status reason (NotFound, Forbidden, ...), empty without one
     */
    public NamespaceLookupException(int code, String reason, String message) {
        super(message, null, false, false);
        this.code = code;
        this.reason = reason;
    }

    /** The API server's NotFound for a namespace: {@code namespaces "<name>" not found}, with an optional hint. */
    public static NamespaceLookupException notFound(String name, String hint) {
        return new NamespaceLookupException(404, "NotFound", "namespaces \"" + name + "\" not found"
                + (hint.isEmpty() ? "" : " (" + hint + ")"));
    }

    /** The HTTP status of a Status answer, or 0 when the lookup got no answer. */
    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public boolean isNotFound() {
        return code == 404;
    }

    /** True when the API server answered with a Status (404, 403, 500, ...), false for a transport failure. */
    public boolean hasStatus() {
        return code != 0;
    }

    /**
     * The error as a namespaceSelector match reports it: NotFound passes through; anything else becomes an
     * internal error (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/namespace/matcher.go,
     * MatchNamespaceSelector).
     */
    public String selectorMessage() {
        return isNotFound() ? getMessage() : "Internal error occurred: " + getMessage();
    }

    /**
     * The request denied with this error's Status (an out-of-range code as 500), as the API server answers when
     * it returns a StatusError from admission. Without a Status (no answer): 500 with the message.
     */
    public Verdict denial() {
        int status = code >= 400 && code <= 599 ? code : 500;
        return Verdict.deny(status, reason.isEmpty() || status != code ? Verdict.reasonFor(status) : reason,
                getMessage());
    }
}
