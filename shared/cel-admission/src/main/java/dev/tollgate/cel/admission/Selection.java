package dev.tollgate.cel.admission;

import java.util.List;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.Rule;

/**
 * Which requests a policy selects, whatever its kind: a ValidatingAdmissionPolicy's or MutatingAdmissionPolicy's
 * {@code matchConstraints} ({@link MatchResources}), a Gatekeeper Constraint's {@code match}. The dispatcher runs
 * {@link #matches} only on the policies {@link PolicyIndex} finds by their {@link #indexKeys}.
 */
public interface Selection {

    /**
     * Whether the request is selected.
     *
     * @throws NamespaceLookupException when the namespace's labels are needed and cannot be read
     */
    boolean matches(AdmissionRequest request, Namespaces namespaces);

    /** What the index files this policy under; it must be a superset of what {@link #matches} selects. */
    IndexKeys indexKeys();

    /**
     * Where {@link PolicyIndex} files a policy: the operations, groups and resources of its rules, the groups and
     * kinds of the objects it selects, and a namespaceSelector that is a necessary condition of
     * {@link Selection#matches} (everything: none). A policy with neither rules nor object kinds is a candidate for
     * every request.
     */
    record IndexKeys(List<Rule> rules, List<ObjectKind> objectKinds, LabelSelector namespaceSelector) {

        public IndexKeys {
            rules = List.copyOf(rules);
            objectKinds = List.copyOf(objectKinds);
        }
    }

    /** An object's API group (empty for the core group) and kind, each {@code *} for any. */
    record ObjectKind(String group, String kind) {
    }
}
