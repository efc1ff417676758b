package dev.tollgate.simulator;

/** Sends one AdmissionReview to a webhook and returns what came back; how it travels is the implementation's. */
public interface WebhookClient {

    /** An HTTP answer: status code and body. */
    record Answer(int status, byte[] body) {
    }

    /** A call that produced no HTTP answer: refused, reset, TLS failure, or no answer within the timeout. */
    final class CallFailure extends Exception {
        public CallFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    Answer post(Webhook webhook, byte[] review) throws CallFailure;
}
