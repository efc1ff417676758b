package dev.tollgate.runtime;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionHandler;
import dev.tollgate.admission.AdmissionReview;
import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.conversion.ConversionReview;

/**
 * The decision-log fields that differ by kind of review ({@link DecisionLog} writes the rest): what identifies the
 * request, what the answer adds, and the objects. A result whose body was not decoded has the same fields, empty.
 */
final class DecisionFields {

    private DecisionFields() {
    }

    /** Admission: namespace, name, user. Conversion: desiredAPIVersion, objectCount. */
    static void subject(HandlerResult<?> result, JsonGenerator line) throws IOException {
        switch (result.kind()) {
            case ADMISSION -> {
                var request = result.review() instanceof AdmissionReview review ? review.request() : null;
                line.writeStringField("namespace", request == null ? "" : request.namespace());
                line.writeStringField("name", request == null ? "" : request.name());
                line.writeStringField("user", request == null ? "" : request.userInfo().username());
            }
            case CONVERSION -> {
                var request = result.review() instanceof ConversionReview review ? review.request() : null;
                line.writeStringField("desiredAPIVersion", request == null ? "" : request.desiredApiVersion());
                line.writeNumberField("objectCount", request == null ? 0 : request.objects().size());
            }
        }
    }

    /**
     * Admission: the denial's code, the patch's operations, and the exception that allowed the request without the
     * policy. Conversion: nothing.
     */
    static void details(HandlerResult<?> result, JsonGenerator line) throws IOException {
        if (result.kind() == ReviewKind.ADMISSION) {
            if (result.verdict() != null && !result.verdict().allowed()) {
                line.writeNumberField("code", result.verdict().code());
            }
            line.writeNumberField("patchOps", result.patchOps());
            if (result.decision() == HandlerResult.Outcome.EXCEPTED) {
                line.writeStringField("exception", result.verdict().auditAnnotations()
                        .get(AdmissionHandler.EXCEPTED_BY));
            }
        }
    }

    /**
     * Admission: object and oldObject, {@code null} when absent (no object on DELETE, no oldObject on CREATE).
     * Conversion: the objects, only when there are some.
     */
    static void objects(HandlerResult<?> result, JsonGenerator line) throws IOException {
        if (result.review() instanceof AdmissionReview review) {
            line.writeFieldName("object");
            line.writeTree(review.request().object() == null ? null : review.request().object().json());
            line.writeFieldName("oldObject");
            line.writeTree(review.request().oldObject() == null ? null : review.request().oldObject().json());
        } else if (result.review() instanceof ConversionReview review && !review.request().objects().isEmpty()) {
            line.writeArrayFieldStart("objects");
            for (ObjectNode o : review.request().objects()) {
                line.writeTree(o);
            }
            line.writeEndArray();
        }
    }
}
