package dev.tollgate.admission.conversion;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the API server asks: convert {@code objects} (all of one CRD's kind, each in some served version) to
 * {@code desiredApiVersion}. The objects stay raw JSON trees, so no field is lost; treat them as read-only (the
 * handler gives the policy a deep copy of each).
 *
 * @param uid               echoed in the response
 * @param desiredApiVersion {@code <group>/<version>}, e.g. {@code shop.tollgate.dev/v2}
 * @param objects           the objects to convert, in order
 */
public record ConversionRequest(String uid, String desiredApiVersion, List<ObjectNode> objects) {

    public ConversionRequest {
        objects = List.copyOf(objects);
    }
}
