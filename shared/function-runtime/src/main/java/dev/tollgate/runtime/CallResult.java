package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;

import dev.tollgate.admission.HandlerResult;

/**
 * One call's answer, whatever the review type: the status and body to send, and what the gate counts
 * ({@link ReviewMetrics}) and logs ({@link DecisionLog}) for it. Made from the library's result of a review
 * ({@link Reviewed}), or by the gate itself for a request it refuses before any review is decoded ({@link Refused}).
 */
sealed interface CallResult {

    int status();

    byte[] body();

    /** A request refused before a policy ran (4xx, or 503 for the body budget): a bad request, not a review. */
    boolean refused();

    /** The verdict label: allowed, denied, patched; converted, failed, invalid; error; bad_request. */
    String outcome();

    /** The request's uid, or "" when it was not decoded. */
    String uid();

    /** CREATE, UPDATE, DELETE, CONNECT or CONVERT; "" when no review was decoded. */
    String operation();

    /** The kind of the reviewed object(s), or "". */
    String kind();

    /** The error, or for a failed conversion its message; "" otherwise. */
    String error();

    /**
     * What the policy decided (allowed, denied, patched; for conversions and errors the outcome), or "" when no
     * review was decoded.
     */
    default String decision() {
        return "";
    }

    /** The call's enforcement mode (enforce, warn, audit), or "" when no review was decoded. */
    default String enforcement() {
        return "";
    }

    /** Decision-log fields that identify the request, written after {@code kind}. */
    default void subject(JsonGenerator line) throws IOException {
    }

    /** Decision-log fields about the answer, written after {@code status}. */
    default void details(JsonGenerator line) throws IOException {
    }

    /** The request's objects, for the decision log when {@code tollgate.decision-log.include-objects} is on. */
    default void objects(JsonGenerator line) throws IOException {
    }

    /**
     * The library's result for a review of either kind. The decision-log fields that identify the request and its
     * objects are the kind's own ({@link DecisionFields}); everything else is the same for both.
     */
    record Reviewed(HandlerResult<?> result) implements CallResult {
        @Override
        public int status() {
            return result.status();
        }

        @Override
        public byte[] body() {
            return result.body();
        }

        @Override
        public boolean refused() {
            return result.outcome() == HandlerResult.Outcome.BAD_REQUEST;
        }

        @Override
        public String outcome() {
            return result.outcome().label();
        }

        @Override
        public String uid() {
            return result.uid();
        }

        @Override
        public String operation() {
            return result.operation();
        }

        @Override
        public String kind() {
            return result.objectKind();
        }

        @Override
        public String error() {
            return result.error();
        }

        @Override
        public String decision() {
            return result.review() == null ? "" : result.decision().label();
        }

        @Override
        public String enforcement() {
            return result.review() == null ? "" : result.enforcement().label();
        }

        @Override
        public void subject(JsonGenerator line) throws IOException {
            DecisionFields.subject(result, line);
        }

        @Override
        public void details(JsonGenerator line) throws IOException {
            DecisionFields.details(result, line);
        }

        @Override
        public void objects(JsonGenerator line) throws IOException {
            DecisionFields.objects(result, line);
        }
    }

    /** A request the gate answers itself before any review is decoded (401, 404, 405, 400, 408, 413, 503, 500). */
    record Refused(int status, byte[] body, String error) implements CallResult {
        @Override
        public boolean refused() {
            return status < 500 || status == 503;
        }

        @Override
        public String outcome() {
            return refused() ? "bad_request" : "error";
        }

        @Override
        public String uid() {
            return "";
        }

        @Override
        public String operation() {
            return "";
        }

        @Override
        public String kind() {
            return "";
        }
    }
}
