package dev.tollgate.admission.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A CRD conversion webhook's logic: converts one object to the desired apiVersion. The library does the rest
 * (decoding the ConversionReview, calling this once per object, checking each result against the API server's rules,
 * answering in the version received); see {@link ConversionHandler}.
 *
 * <p>Conversions must be lossless both ways: whatever the target version cannot express goes into an annotation and
 * comes back from it, as the Kubernetes documentation on CRD versioning recommends. Only labels and annotations of
 * {@code metadata} may change; the conversion must not default, validate or depend on anything but the object.
 * The function's name (its path) comes from the module's webhook.yaml.
 */
public interface ConversionPolicy {

    /**
     * Converts {@code object} to {@code desiredApiVersion}. Never called for an object already in that version.
     *
     * @param object            a private deep copy: edit it and return it, or return a new object
     * @param desiredApiVersion {@code <group>/<version>}
     * @return the converted object, with {@code apiVersion} = {@code desiredApiVersion} and the same {@code kind}
     * @throws ConversionException when this object cannot be converted; the whole review fails with its message
     */
    ObjectNode convert(ObjectNode object, String desiredApiVersion) throws ConversionException;
}
