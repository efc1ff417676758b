package dev.tollgate.simulator.audit;

/**
 * The cluster could not be read (unreachable, credentials refused, forbidden, not served): one line that names the
 * host and what failed. {@code tollgate audit} exits with status 2.
 */
public class ClusterException extends RuntimeException {

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }

    public ClusterException(String message) {
        super(message);
    }
}
