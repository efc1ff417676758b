package dev.tollgate.runtime;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.conversion.ConversionException;
import dev.tollgate.admission.conversion.ConversionPolicy;

/**
 * A test conversion policy for {@code Probe} objects of {@code probe.tollgate.dev}: v1's {@code spec.size} is v2's
 * {@code spec.capacity}. Labels steer it: {@code probe=refuse} refuses the object, {@code probe=throw} throws,
 * {@code probe=rename} changes the object's name (a conversion the API server rejects), {@code sleep-ms=N} sleeps.
 */
@ApplicationScoped
public class ProbeConversion implements ConversionPolicy {

    static final String GROUP = "probe.tollgate.dev";

    @Override
    public ObjectNode convert(ObjectNode object, String desiredApiVersion) throws ConversionException {
        var labels = object.path("metadata").path("labels");
        long sleep = labels.path("sleep-ms").asLong(0);
        if (sleep > 0) {
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        switch (labels.path("probe").asText("")) {
            case "refuse" -> throw new ConversionException("probe refuses");
            case "throw" -> throw new IllegalStateException("probe failure");
            case "rename" -> ((ObjectNode) object.get("metadata")).put("name", "renamed");
            default -> {
            }
        }
        ObjectNode spec = object.with("spec");
        if (desiredApiVersion.equals(GROUP + "/v2") && spec.has("size")) {
            spec.set("capacity", spec.remove("size"));
        } else if (desiredApiVersion.equals(GROUP + "/v1") && spec.has("capacity")) {
            spec.set("size", spec.remove("capacity"));
        } else if (!desiredApiVersion.startsWith(GROUP + "/")) {
            throw new ConversionException("not a " + GROUP + " version");
        }
        return object.put("apiVersion", desiredApiVersion);
    }
}
