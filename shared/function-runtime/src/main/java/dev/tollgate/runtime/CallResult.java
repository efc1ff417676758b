package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.conversion.ConversionRequest;
import dev.tollgate.admission.conversion.ConversionResult;

/**
 * One call's answer, whatever the review type: the status and body to send, and what the gate counts
 * ({@link ReviewMetrics}) and logs ({@link DecisionLog}) for it. Made from the library's result of an admission
 * review ({@link Admission}) or a conversion review ({@link Conversion}), or by the gate itself for a request it
 * refuses before any review is decoded ({@link Refused}).
 */
sealed interface CallResult {

    /** The {@code operation} label of conversion reviews (admission has CREATE, UPDATE, DELETE, CONNECT). */
    String CONVERT = "CONVERT";

    int status();

    byte[] body();

    /** A request refused before a policy ran (4xx, or 503 for the body budget): a bad request, not a review. */
    boolean refused();

    /** The verdict label: allowed, denied, patched; converted, failed, invalid; error; bad_request. */
    String outcome();

    /** The request's uid, or "" when it was not decoded. */
    String uid();

    /** CREATE, UPDATE, DELETE, CONNECT or {@value #CONVERT}; "" when no review was decoded. */
    String operation();

    /** The kind of the reviewed object(s), or "". */
    String kind();

    /** The error, or for a failed conversion its message; "" otherwise. */
    String error();

    /** Decision-log fields that identify the request, written after {@code kind}. */
    default void subject(JsonGenerator line) throws IOException {
    }

    /** Decision-log fields about the answer, written after {@code status}. */
    default void details(JsonGenerator line) throws IOException {
    }

    /** The request's objects, for the decision log when {@code tollgate.decision-log.include-objects} is on. */
    default void objects(JsonGenerator line) throws IOException {
    }

    record Admission(HandlerResult result) implements CallResult {
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

        private AdmissionRequest request() {
            return result.review() == null ? null : result.review().request();
        }

        @Override
        public String uid() {
            return request() == null ? "" : request().uid();
        }

        @Override
        public String operation() {
            return request() == null ? "" : request().operation().name();
        }

        @Override
        public String kind() {
            return request() == null ? "" : request().kind().kind();
        }

        @Override
        public String error() {
            return result.error();
        }

        @Override
        public void subject(JsonGenerator line) throws IOException {
            AdmissionRequest request = request();
            line.writeStringField("namespace", request == null ? "" : request.namespace());
            line.writeStringField("name", request == null ? "" : request.name());
            line.writeStringField("user", request == null ? "" : request.userInfo().username());
        }

        @Override
        public void details(JsonGenerator line) throws IOException {
            if (result.verdict() != null && !result.verdict().allowed()) {
                line.writeNumberField("code", result.verdict().code());
            }
            line.writeNumberField("patchOps", result.patchOps());
        }

        /** Both fields, {@code null} when absent (no object on DELETE, no oldObject on CREATE). */
        @Override
        public void objects(JsonGenerator line) throws IOException {
            AdmissionRequest request = request();
            if (request != null) {
                line.writeFieldName("object");
                line.writeTree(request.object() == null ? null : request.object().json());
                line.writeFieldName("oldObject");
                line.writeTree(request.oldObject() == null ? null : request.oldObject().json());
            }
        }
    }

    record Conversion(ConversionResult result) implements CallResult {
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
            return result.outcome() == ConversionResult.Outcome.BAD_REQUEST;
        }

        @Override
        public String outcome() {
            return result.outcome().label();
        }

        private ConversionRequest request() {
            return result.review() == null ? null : result.review().request();
        }

        @Override
        public String uid() {
            return request() == null ? "" : request().uid();
        }

        @Override
        public String operation() {
            return request() == null ? "" : CONVERT;
        }

        /** One review converts objects of one CRD, so of one kind: the first object's. */
        @Override
        public String kind() {
            ConversionRequest request = request();
            return request == null || request.objects().isEmpty() ? ""
                    : request.objects().get(0).path("kind").asText("");
        }

        @Override
        public String error() {
            return result.error();
        }

        @Override
        public void subject(JsonGenerator line) throws IOException {
            ConversionRequest request = request();
            line.writeStringField("desiredAPIVersion", request == null ? "" : request.desiredApiVersion());
            line.writeNumberField("objectCount", request == null ? 0 : request.objects().size());
        }

        /** The field only when there are objects (an empty review writes none). */
        @Override
        public void objects(JsonGenerator line) throws IOException {
            ConversionRequest request = request();
            if (request != null && !request.objects().isEmpty()) {
                line.writeArrayFieldStart("objects");
                for (ObjectNode o : request.objects()) {
                    line.writeTree(o);
                }
                line.writeEndArray();
            }
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
