package dev.tollgate.knative;

/** A failure the user can act on; its message says what went wrong and what to do. No stack trace is shown. */
public class DeployException extends RuntimeException {

    public DeployException(String message) {
        super(message);
    }

    public DeployException(String message, Throwable cause) {
        super(message, cause);
    }
}
