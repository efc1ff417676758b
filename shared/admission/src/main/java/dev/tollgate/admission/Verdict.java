package dev.tollgate.admission;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A policy's decision: allow or deny, plus warnings and audit annotations. Verdicts are immutable; the
 * {@code with...} methods return new verdicts. A verdict never carries a JSON patch: patches are computed by the
 * library from a mutating policy's edits, so a validating policy cannot produce one.
 */
public final class Verdict {

    /**
     * A single warning is cut to this many characters only once the total of the request's warnings has passed
     * {@link #MAX_TOTAL_WARNINGS_LENGTH} (the API server's rule, {@link WarningRecorder}).
     */
    public static final int MAX_WARNING_LENGTH = WarningRecorder.TRUNCATE_ITEM;
    /** The total of warnings the API server shows whole; past it warnings are cut, then dropped. */
    public static final int MAX_TOTAL_WARNINGS_LENGTH = WarningRecorder.TRUNCATE_AT_TOTAL;

    // An audit annotation key becomes "<webhook name>/<key>", so the key must be a valid qualified-name part.
    private static final Pattern AUDIT_KEY = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

    private static final Verdict ALLOW = new Verdict(true, 200, "", "", new WarningRecorder(), Map.of());

    private final boolean allowed;
    private final int code;
    private final String reason;
    private final String message;
    private final WarningRecorder recorder; // never changed once this verdict holds it
    private final List<String> warnings;
    private final Map<String, String> auditAnnotations;

    private Verdict(boolean allowed, int code, String reason, String message, WarningRecorder recorder,
            Map<String, String> auditAnnotations) {
        this.allowed = allowed;
        this.code = code;
        this.reason = reason;
        this.message = message;
        this.recorder = recorder;
        this.warnings = recorder.warnings();
        this.auditAnnotations = auditAnnotations;
    }

    public static Verdict allow() {
        return ALLOW;
    }

    /** Denies with 403 Forbidden, the API server's convention for a policy refusal. */
    public static Verdict deny(String message) {
        return deny(403, message);
    }

    /** Denies with the given HTTP-style code; the reason is the Kubernetes StatusReason for that code. */
    public static Verdict deny(int code, String message) {
        return deny(code, reasonFor(code), message);
    }

    public static Verdict deny(int code, String reason, String message) {
        if (code < 400 || code > 599) {
            throw new IllegalArgumentException("a denial needs an error code (400-599), got " + code);
        }
        Objects.requireNonNull(message, "message");
        return new Verdict(false, code, reason == null ? "" : reason, message, new WarningRecorder(), Map.of());
    }

    /**
     * Adds a warning shown to the client (kubectl prints it as "Warning: ..."). A leading "Warning:" is removed and
     * control characters (line breaks) become spaces, since the API server drops a warning that holds any. Blank and
     * repeated warnings are dropped; long ones are kept whole until the total passes
     * {@link #MAX_TOTAL_WARNINGS_LENGTH}, then cut and dropped as the API server does ({@link WarningRecorder}).
     */
    public Verdict withWarning(String warning) {
        String clean = cleanWarning(warning);
        WarningRecorder next = recorder.copy();
        if (!next.add(clean)) {
            return this;
        }
        return new Verdict(allowed, code, reason, message, next, auditAnnotations);
    }

    public Verdict withWarnings(Iterable<String> more) {
        WarningRecorder next = recorder.copy();
        boolean changed = false;
        for (String w : more) {
            changed |= next.add(cleanWarning(w));
        }
        return changed ? new Verdict(allowed, code, reason, message, next, auditAnnotations) : this;
    }

    /**
     * Adds an audit annotation; the API server records it as {@code <webhook name>/<key>} in the audit event.
     *
     * @throws IllegalArgumentException when the key is not a valid qualified-name part (63 characters at most)
     */
    public Verdict withAuditAnnotation(String key, String value) {
        if (key == null || !AUDIT_KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("invalid audit annotation key '" + key
                    + "': use up to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
        }
        Map<String, String> next = new LinkedHashMap<>(auditAnnotations);
        next.put(key, value == null ? "" : value);
        return new Verdict(allowed, code, reason, message, recorder, Collections.unmodifiableMap(next));
    }

    public boolean allowed() {
        return allowed;
    }

    /** 200 when allowed, otherwise the HTTP-style status code of the denial. */
    public int code() {
        return code;
    }

    /** The Kubernetes StatusReason of a denial, e.g. {@code Forbidden}; empty when allowed. */
    public String reason() {
        return reason;
    }

    /** The denial message; empty when allowed. */
    public String message() {
        return message;
    }

    public List<String> warnings() {
        return warnings;
    }

    public Map<String, String> auditAnnotations() {
        return auditAnnotations;
    }

    /** The Kubernetes StatusReason conventionally paired with an HTTP status code. */
    public static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 408 -> "Timeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "";
        };
    }

    private static String cleanWarning(String warning) {
        if (warning == null) {
            return "";
        }
        String w = warning.strip();
        if (w.regionMatches(true, 0, "Warning:", 0, 8)) {
            w = w.substring(8).strip();
        }
        StringBuilder sb = new StringBuilder(w.length());
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            sb.append(Character.isISOControl(c) ? ' ' : c);
        }
        return sb.toString().strip();
    }

    @Override
    public String toString() {
        return allowed ? "allow" + (warnings.isEmpty() ? "" : " " + warnings)
                : "deny(" + code + " " + reason + ": " + message + ")";
    }
}
