package dev.tollgate.admission;

/** The body is not a valid AdmissionReview request. The message names the problem and is safe to return. */
public class ReviewDecodeException extends Exception {

    private final int status;

    public ReviewDecodeException(String message) {
        this(400, message);
    }

    public ReviewDecodeException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** The HTTP status to answer with: 400, or 413 when a size limit was hit. */
    public int status() {
        return status;
    }
}
