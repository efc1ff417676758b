package dev.tollgate.simulator;

/** Sends one AdmissionReview to a webhook and returns what came back; how it travels is the implementation's. */
public interface WebhookClient {

    /** An HTTP answer: status code, body and the Content-Type header (which decides how client-go words errors). */
    record Answer(int status, byte[] body, String contentType) {
        /** A JSON answer. */
        public Answer(int status, byte[] body) {
            this(status, body, "application/json");
        }
    }

    /** A call that produced no HTTP answer: refused, reset, TLS failure, or no answer within the timeout. */
    final class CallFailure extends Exception {
        public CallFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    Answer post(Webhook webhook, byte[] review) throws CallFailure;
}
