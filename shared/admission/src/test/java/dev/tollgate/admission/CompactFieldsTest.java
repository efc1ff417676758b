package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@link CompactFields} behaves as the {@link LinkedHashMap} Jackson would have used, small and large. */
class CompactFieldsTest {

    /** Random operations on both maps, across the move to a hash table, compared after each. */
    @Test
    void behavesAsALinkedHashMapUnderRandomOperations() {
        Random random = new Random(44);
        for (int run = 0; run < 200; run++) {
            CompactFields compact = new CompactFields();
            Map<String, JsonNode> reference = new LinkedHashMap<>();
            int names = 1 + random.nextInt(CompactFields.SMALL * 2);
            for (int step = 0; step < 300; step++) {
                // new String: names equal but not the same instance, as a name built at run time would be
                String name = new String("f" + random.nextInt(names));
                JsonNode value = IntNode.valueOf(random.nextInt(1000));
                String what = switch (random.nextInt(11)) {
                    case 0, 1, 2, 3 -> {
                        assertEquals(reference.put(name, value), compact.put(name, value), "put " + name);
                        yield "put";
                    }
                    case 4 -> {
                        assertEquals(reference.remove(name), compact.remove(name), "remove " + name);
                        yield "remove";
                    }
                    case 5 -> {
                        assertEquals(reference.get(name), compact.get(name), "get " + name);
                        assertEquals(reference.containsKey(name), compact.containsKey(name), "containsKey " + name);
                        yield "get";
                    }
                    case 6 -> { // remove through the iterator, every other field
                        Iterator<Map.Entry<String, JsonNode>> r = reference.entrySet().iterator();
                        Iterator<Map.Entry<String, JsonNode>> c = compact.entrySet().iterator();
                        for (int i = 0; r.hasNext(); i++) {
                            assertTrue(c.hasNext());
                            assertEquals(r.next(), c.next());
                            if (i % 2 == 1) {
                                r.remove();
                                c.remove();
                            }
                        }
                        assertFalse(c.hasNext());
                        yield "iterator remove";
                    }
                    case 7 -> { // set every value through the entries
                        reference.entrySet().forEach(e -> e.setValue(IntNode.valueOf(e.getValue().intValue() + 1)));
                        compact.entrySet().forEach(e -> e.setValue(IntNode.valueOf(e.getValue().intValue() + 1)));
                        yield "setValue";
                    }
                    case 8 -> {
                        List<String> seen = new ArrayList<>();
                        compact.forEach((k, v) -> seen.add(k + "=" + v));
                        List<String> expected = new ArrayList<>();
                        reference.forEach((k, v) -> expected.add(k + "=" + v));
                        assertEquals(expected, seen, "forEach");
                        compact.keySet().removeIf(k -> k.endsWith("3"));
                        reference.keySet().removeIf(k -> k.endsWith("3"));
                        yield "keySet removeIf";
                    }
                    case 9 -> { // a deep copy is equal, and independent of the original
                        CompactFields copy = compact.deepCopy();
                        assertAlike(reference, copy, "deepCopy");
                        copy.put("copied", IntNode.valueOf(1));
                        assertEquals(reference.containsKey("copied"), compact.containsKey("copied"));
                        yield "deepCopy";
                    }
                    default -> {
                        if (random.nextInt(20) == 0) {
                            compact.clear();
                            reference.clear();
                        }
                        yield "clear";
                    }
                };
                assertAlike(reference, compact, what);
            }
        }
    }

    private static void assertAlike(Map<String, JsonNode> reference, CompactFields compact, String after) {
        assertEquals(reference.size(), compact.size(), after);
        assertEquals(new ArrayList<>(reference.entrySet()), new ArrayList<>(compact.entrySet()), after + ": order");
        assertEquals(reference, compact, after);
        assertEquals(compact, reference, after);
        assertEquals(reference.hashCode(), compact.hashCode(), after);
        // against another compact object: the same fields in reverse order are equal, one value changed is not
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(reference.entrySet());
        CompactFields reversed = new CompactFields();
        for (int i = entries.size() - 1; i >= 0; i--) {
            reversed.put(entries.get(i).getKey(), entries.get(i).getValue());
        }
        assertEquals(compact, reversed, after + ": reversed");
        assertEquals(compact.hashCode(), reversed.hashCode(), after + ": reversed");
        if (!entries.isEmpty()) {
            reversed.put(entries.get(0).getKey(), IntNode.valueOf(-1));
            assertNotEquals(compact, reversed, after + ": a value changed");
            reversed.remove(entries.get(0).getKey());
            reversed.put("other", IntNode.valueOf(-1));
            assertNotEquals(compact, reversed, after + ": a name changed");
        }
    }

    @Test
    void anIteratorOvertakenByAChangeSaysSo() {
        CompactFields fields = new CompactFields();
        fields.put("a", IntNode.valueOf(1));
        fields.put("b", IntNode.valueOf(2));
        Iterator<Map.Entry<String, JsonNode>> it = fields.entrySet().iterator();
        it.next();
        fields.put("c", IntNode.valueOf(3));
        assertThrows(ConcurrentModificationException.class, it::next);
    }

    @Test
    void anEntryOfARemovedFieldDoesNotBringItBack() {
        CompactFields fields = new CompactFields();
        fields.put("a", IntNode.valueOf(1));
        Map.Entry<String, JsonNode> a = fields.entrySet().iterator().next();
        fields.remove("a");
        assertNull(a.setValue(IntNode.valueOf(2)));
        assertTrue(fields.isEmpty());
    }

    /** A review read by ReviewJson is the tree Jackson's default would read, written back byte for byte. */
    @Test
    void reviewTreesAreCompactAndEqualToJacksonsDefault() throws Exception {
        StringBuilder wide = new StringBuilder("{");
        for (int i = 0; i < 40; i++) {
            wide.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
        }
        wide.append('}');
        String body = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                + "\"object\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"data\":" + wide + ",\"list\":[{\"a\":1},"
                + "{\"b\":[{\"c\":null}]}]}}}";
        ReviewJson json = new ReviewJson();
        JsonNode compact = json.parseBody(body.getBytes(StandardCharsets.UTF_8), "an AdmissionReview");
        ObjectMapper plain = new ObjectMapper();
        JsonNode reference = plain.readTree(body);

        assertEquals(reference, compact);
        assertEquals(compact, reference);
        assertEquals(body, plain.writeValueAsString(compact));
        ObjectNode labels = (ObjectNode) compact.at("/request/object/metadata/labels");
        assertInstanceOf(CompactFields.class, fieldsOf(labels));
        // a copy (what a mutating policy edits) is compact too, and independent of the original
        ObjectNode copy = ((ObjectNode) compact.at("/request/object")).deepCopy();
        assertInstanceOf(CompactFields.class, fieldsOf((ObjectNode) copy.at("/metadata/labels")));
        ((ObjectNode) copy.at("/metadata/labels")).put("team", "t");
        ((ObjectNode) copy.at("/data")).remove(List.of("k1", "k2"));
        assertEquals("x", labels.path("app").asText());
        assertFalse(labels.has("team"));
        assertEquals(40, compact.at("/request/object/data").size());
        assertEquals(38, copy.at("/data").size());
    }

    private static Object fieldsOf(ObjectNode node) throws ReflectiveOperationException {
        var children = ObjectNode.class.getDeclaredField("_children");
        children.setAccessible(true);
        return children.get(node);
    }
}
