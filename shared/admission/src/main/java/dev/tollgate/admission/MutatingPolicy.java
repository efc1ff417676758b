package dev.tollgate.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Changes objects on their way in. The policy edits {@code object}, a deep copy of the request's object, and
 * returns a verdict; the library computes the JSON Patch from the edits. Never write patch paths by hand.
 */
public non-sealed interface MutatingPolicy extends AdmissionPolicy {

    /**
     * @param request the request, read-only
     * @param object  a private deep copy of {@code request.object()} to edit, or null when the request carries no
     *                object (DELETE, CONNECT)
     * @return usually {@link Verdict#allow()}; a mutating policy may also deny
     */
    Verdict mutate(AdmissionRequest request, ObjectNode object);
}
