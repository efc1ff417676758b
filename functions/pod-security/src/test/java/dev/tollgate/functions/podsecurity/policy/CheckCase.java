package dev.tollgate.functions.podsecurity.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.tollgate.testing.Manifests;

/**
 * One row of a check's table: a pod (YAML, usually flow style), the policy minor version, and the expected result
 * of the check's revision in force at that version. Upstream's unit tests for each check have the same shape.
 */
record CheckCase(String name, int minor, String pod, CheckResult expected) {

    static CheckCase allowed(String name, int minor, String pod) {
        return new CheckCase(name, minor, pod, CheckResult.ALLOWED);
    }

    static CheckCase forbidden(String name, int minor, String pod, String reason, String detail) {
        return new CheckCase(name, minor, pod, CheckResult.forbidden(reason, detail));
    }

    /** Runs the revision of {@code check} in force at this case's version and compares the result exactly. */
    void assertOn(Check check) {
        Check.Revision revision = check.revisionAt(minor);
        assertNotNull(revision, () -> check.id() + " has no revision at v1." + minor);
        CheckResult actual = revision.check().check(Pod.of(Manifests.parse(pod)));
        assertEquals(expected, actual, name);
    }

    @Override
    public String toString() {
        return name + " @v1." + minor;
    }
}
