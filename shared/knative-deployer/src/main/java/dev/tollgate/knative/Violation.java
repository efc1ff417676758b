package dev.tollgate.knative;

/** One rule a manifest breaks: the field path (e.g. {@code spec.template.spec.timeoutSeconds}) and why. */
public record Violation(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
