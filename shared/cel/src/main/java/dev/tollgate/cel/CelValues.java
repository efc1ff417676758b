package dev.tollgate.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.NullValue;

/**
 * Converts between JSON trees and the values cel-java works with, the way Kubernetes maps unstructured objects:
 * objects become maps (so {@code has()}, {@code in}, equality and macros behave as in Kubernetes), arrays become lists,
 * integers int64, other numbers double, JSON null the CEL null. Objects and arrays are wrapped lazily, not copied: an
 * expression that reads three fields of a 4 KB pod converts three fields.
 */
public final class CelValues {

    private CelValues() {
    }

    /** The CEL value of a JSON tree; Java null and JSON null both become CEL null. */
    public static Object fromJson(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        switch (node.getNodeType()) {
            case OBJECT:
                return new JsonMap((ObjectNode) node);
            case ARRAY:
                return new JsonList((ArrayNode) node);
            case STRING:
                return node.textValue();
            case BOOLEAN:
                return node.booleanValue();
            case NUMBER:
                if (node.isIntegralNumber()) {
                    return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
                }
                return node.doubleValue();
            case BINARY:
                try {
                    return ByteString.copyFrom(node.binaryValue());
                } catch (java.io.IOException e) {
                    throw new IllegalArgumentException("unreadable binary JSON value", e);
                }
            default:
                throw new IllegalArgumentException("JSON value of type " + node.getNodeType() + " has no CEL form");
        }
    }

    /**
     * The JSON form of a CEL result (for patch values, audit annotations, messages). Opaque library values (quantity,
     * ip, ...) become their string form; CEL null and an empty optional become JSON null.
     */
    public static JsonNode toJson(Object value) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (value == null || value instanceof NullValue) {
            return f.nullNode();
        }
        if (value instanceof JsonMap m) {
            return m.node;
        }
        if (value instanceof JsonList l) {
            return l.node;
        }
        if (value instanceof Optional<?> o) {
            return o.isPresent() ? toJson(o.get()) : f.nullNode();
        }
        if (value instanceof String s) {
            return f.textNode(s);
        }
        if (value instanceof Boolean b) {
            return f.booleanNode(b);
        }
        if (value instanceof Long l) {
            return f.numberNode(l);
        }
        if (value instanceof Integer i) {
            return f.numberNode(i.longValue());
        }
        if (value instanceof Double d) {
            return f.numberNode(d);
        }
        if (value instanceof com.google.common.primitives.UnsignedLong u) {
            return f.numberNode(u.bigIntegerValue());
        }
        if (value instanceof BigInteger b) {
            return f.numberNode(b);
        }
        if (value instanceof BigDecimal b) {
            return f.numberNode(b);
        }
        if (value instanceof ByteString b) {
            return f.binaryNode(b.toByteArray());
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode o = f.objectNode();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                o.set(String.valueOf(e.getKey()), toJson(e.getValue()));
            }
            return o;
        }
        if (value instanceof List<?> list) {
            ArrayNode a = f.arrayNode();
            for (Object item : list) {
                a.add(toJson(item));
            }
            return a;
        }
        return f.textNode(value.toString());
    }

    /** A read-only map view of a JSON object. */
    static final class JsonMap extends AbstractMap<String, Object> {
        final ObjectNode node;

        JsonMap(ObjectNode node) {
            this.node = node;
        }

        @Override
        public Object get(Object key) {
            if (!(key instanceof String k)) {
                return null;
            }
            JsonNode child = node.get(k);
            return child == null ? null : fromJson(child);
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String k && node.has(k);
        }

        @Override
        public int size() {
            return node.size();
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Object>> iterator() {
                    Iterator<Entry<String, JsonNode>> fields = node.fields();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return fields.hasNext();
                        }

                        @Override
                        public Entry<String, Object> next() {
                            Entry<String, JsonNode> e = fields.next();
                            return new SimpleImmutableEntry<>(e.getKey(), fromJson(e.getValue()));
                        }
                    };
                }

                @Override
                public int size() {
                    return node.size();
                }
            };
        }
    }

    /** A read-only list view of a JSON array. */
    static final class JsonList extends AbstractList<Object> {
        final ArrayNode node;

        JsonList(ArrayNode node) {
            this.node = node;
        }

        @Override
        public Object get(int index) {
            return fromJson(node.get(index));
        }

        @Override
        public int size() {
            return node.size();
        }
    }
}
