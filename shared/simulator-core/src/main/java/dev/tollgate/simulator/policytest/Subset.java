package dev.tollgate.simulator.policytest;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * "The object, or a part of it": an expected tree matches an actual one when every field it names is there with a
 * matching value. Mappings are compared by the expected keys only; lists element by element and with the same length;
 * scalars by value (numbers numerically); an expected {@code null} means the field must be absent.
 */
final class Subset {

    private Subset() {
    }

    static boolean matches(JsonNode expected, JsonNode actual) {
        if (expected == null || expected.isNull()) {
            return actual == null || actual.isNull() || actual.isMissingNode();
        }
        if (actual == null || actual.isMissingNode()) {
            return false;
        }
        if (expected.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!matches(f.getValue(), actual.get(f.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!matches(expected.get(i), actual.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        return expected.equals(actual);
    }

    /**
     * The actual tree cut to the shape of the expected one (the fields it names, and whatever stands where it expects
     * an absence), so that a diff of the two shows only what the expectation is about.
     */
    static JsonNode project(JsonNode expected, JsonNode actual) {
        if (actual == null || actual.isMissingNode()) {
            return null;
        }
        if (expected != null && expected.isObject() && actual.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (Iterator<String> it = expected.fieldNames(); it.hasNext();) {
                String k = it.next();
                JsonNode p = project(expected.get(k), actual.get(k));
                if (p != null) {
                    out.set(k, p);
                }
            }
            return out;
        }
        if (expected != null && expected.isArray() && actual.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < actual.size(); i++) {
                JsonNode p = project(i < expected.size() ? expected.get(i) : null, actual.get(i));
                out.add(p == null ? JsonNodeFactory.instance.nullNode() : p);
            }
            return out;
        }
        return actual;
    }
}
