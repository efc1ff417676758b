package dev.tollgate.admission.conversion;

/**
 * What one conversion call produced: the HTTP status and body to send, and what happened, for logs and metrics.
 *
 * @param status  HTTP status: 200 for any answered review (converted or Failure), 4xx for bad input, 500 when the
 *                policy threw
 * @param body    the response body (a ConversionReview, or a JSON error)
 * @param outcome the kind of result
 * @param review  the decoded review, or null when the body could not be decoded
 * @param objects the number of objects in the review (0 when it could not be decoded)
 * @param error   the message for every outcome but CONVERTED (the Failure message or the error), otherwise empty
 */
public record ConversionResult(int status, byte[] body, Outcome outcome, ConversionReview review, int objects,
        String error) {

    public enum Outcome {
        /** Every object converted; result Success. */
        CONVERTED,
        /** The policy refused an object ({@link ConversionException}); result Failure with its message. */
        FAILED,
        /** The policy returned an object the API server would refuse; result Failure naming the broken rule. */
        INVALID,
        /** The body was not a usable ConversionReview: 400 or 413. */
        BAD_REQUEST,
        /** The policy threw: 500. */
        ERROR;

        public String label() {
            return name().toLowerCase();
        }
    }
}
