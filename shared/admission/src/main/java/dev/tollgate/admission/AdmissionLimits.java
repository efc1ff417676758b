package dev.tollgate.admission;

/**
 * Bounds on what a review body may be. The defaults follow controller-runtime: one object may be up to 3 MiB and an
 * UPDATE carries two, so 7 MiB of body; nesting and single strings are bounded so a hostile body cannot exhaust
 * the stack or memory while parsing.
 *
 * @param maxBodyBytes    larger bodies are answered 413
 * @param maxNestingDepth deeper JSON is answered 400
 * @param maxStringLength longer JSON strings are answered 400
 */
public record AdmissionLimits(long maxBodyBytes, int maxNestingDepth, int maxStringLength) {

    public static final AdmissionLimits DEFAULTS = new AdmissionLimits(7L * 1024 * 1024, 100, 3 * 1024 * 1024);

    public AdmissionLimits {
        if (maxBodyBytes < 1024 || maxNestingDepth < 16 || maxStringLength < 1024) {
            throw new IllegalArgumentException("admission limits too small: " + maxBodyBytes + " bytes, depth "
                    + maxNestingDepth + ", string " + maxStringLength);
        }
    }
}
