package dev.tollgate.cel.admission;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;

/** Where the reviews of one cluster find the params of a binding's paramRef. */
public interface ParamSource {

    /**
     * Checks that a policy's paramKind can be used at all, before any binding: the API server refuses the policy
     * (not a binding) when the kind's resource cannot be found.
     *
     * @throws Params.ParamException with the reason, reported as {@code failed to configure policy: ...}
     */
    default void checkKind(Params.Kind kind) {
    }

    /**
     * The params a binding evaluates with, as {@link Params#collect(Params.Kind, Params.Ref, AdmissionRequest)}.
     *
     * @throws Params.ParamException for a binding that cannot be used, reported as
     *                               {@code failed to configure binding: ...}
     */
    List<ObjectNode> collect(Params.Kind kind, Params.Ref ref, AdmissionRequest request);

    /**
     * Every object of {@code kind} this source knows, in every namespace: the inventory a referential policy reads
     * (Gatekeeper's {@code data.inventory}), not a binding's params.
     *
     * @throws Params.ParamException when the objects cannot be read (the reason, in the API server's words where it
     *                               answered)
     */
    default List<ObjectNode> everything(Params.Kind kind) {
        throw new Params.ParamException("cannot read " + kind + " objects: " + describe());
    }

    /** Where params come from, for the startup log. */
    String describe();
}
