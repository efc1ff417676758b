package dev.tollgate.admission;

import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * Bounds on what a review body may be. The defaults follow controller-runtime: one object may be up to 3 MiB and an
 * UPDATE carries two, so 7 MiB of body; nesting and single strings are bounded so a hostile body cannot exhaust
 * the stack or memory while parsing.
 *
 * @param maxBodyBytes    larger bodies are answered 413
 * @param maxNestingDepth deeper JSON is answered 400
 * @param maxStringLength longer JSON strings are answered 400
 * @param maxTokenCount   a body of more JSON tokens is answered 400: the decoded tree's memory grows with its node
 *                        count, not its bytes, so a node-dense body (millions of tiny arrays under the byte limit)
 *                        would otherwise cost several times the heap of an ordinary review at the byte limit.
 *                        Measured (shared/function-runtime README): a 6.7 MiB pod review of small containers has
 *                        1.05 million tokens and a 59 MiB tree; 2 million empty arrays (2.8 MiB) make a 50 MiB
 *                        tree. At 2 million, the densest body accepted costs no more than an ordinary one at 7 MiB.
 */
public record AdmissionLimits(long maxBodyBytes, int maxNestingDepth, int maxStringLength, long maxTokenCount) {

    public static final long DEFAULT_MAX_TOKEN_COUNT = 2_000_000;

    /**
     * The deepest nesting any configuration may allow: Jackson's default depth limit, the ceiling a parser made
     * before the configuration is known (the one Funqy HTTP binds bodies with) is given.
     */
    public static final int MAX_NESTING_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

    public static final AdmissionLimits DEFAULTS = new AdmissionLimits(7L * 1024 * 1024, 100, 3 * 1024 * 1024,
            DEFAULT_MAX_TOKEN_COUNT);

    public AdmissionLimits {
        if (maxBodyBytes < 1024 || maxNestingDepth < 16 || maxStringLength < 1024 || maxTokenCount < 1024) {
            throw new IllegalArgumentException("admission limits too small: " + maxBodyBytes + " bytes, depth "
                    + maxNestingDepth + ", string " + maxStringLength + ", tokens " + maxTokenCount);
        }
        if (maxNestingDepth > MAX_NESTING_DEPTH) {
            throw new IllegalArgumentException("admission limit too large: nesting depth " + maxNestingDepth
                    + " is above " + MAX_NESTING_DEPTH);
        }
    }

    /** Limits with the default token count. */
    public AdmissionLimits(long maxBodyBytes, int maxNestingDepth, int maxStringLength) {
        this(maxBodyBytes, maxNestingDepth, maxStringLength, DEFAULT_MAX_TOKEN_COUNT);
    }

    /**
     * The parser constraints that enforce these limits: the codec's own parsers are made with them, and it applies
     * them to any other parser it reads a review from (Funqy HTTP's).
     */
    public StreamReadConstraints streamReadConstraints() {
        return StreamReadConstraints.builder()
                .maxNestingDepth(maxNestingDepth)
                .maxStringLength(maxStringLength)
                .maxDocumentLength(maxBodyBytes)
                .maxTokenCount(maxTokenCount)
                .build();
    }
}
