package dev.tollgate.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;

import dev.tollgate.admission.JsonPatches;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link JsonPatches#diff} walks objects and in-place array edits itself and leaves the rest to zjsonpatch: for
 * generated documents and edits (small value alphabets, so that duplicates, moves and equal subtrees are common) its
 * patch must be exactly zjsonpatch's, operation for operation and in the same order, and must turn the original
 * into the edited document.
 */
class JsonDiffProperties {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(
            DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION, DiffFlags.OMIT_VALUE_ON_REMOVE);
    private static final String[] KEYS = {"a", "b", "c", "d/e", "f~g", ""};

    @Property(tries = 3000)
    void sameOperationsAsZjsonpatchAndTheyApply(@ForAll long seed) {
        Random random = new Random(seed);
        ObjectNode original = object(random, 0);
        ObjectNode edited = original.deepCopy();
        int edits = random.nextInt(4);
        for (int i = 0; i < edits; i++) {
            edit(random, edited, 0);
        }
        ArrayNode patch = JsonPatches.diff(original, edited);
        assertEquals(JsonDiff.asJson(original, edited, FLAGS).toString(), patch.toString(),
                () -> "original " + original + "\nedited   " + edited);
        assertEquals(edited, JsonPatches.apply(patch, original));
    }

    private static JsonNode value(Random random, int depth) {
        return switch (depth >= 3 ? random.nextInt(3) : random.nextInt(5)) {
            case 0 -> F.numberNode(random.nextInt(3));
            case 1 -> F.textNode(KEYS[random.nextInt(3)]);
            case 2 -> random.nextBoolean() ? F.booleanNode(true) : F.nullNode();
            case 3 -> object(random, depth + 1);
            default -> array(random, depth + 1);
        };
    }

    private static ObjectNode object(Random random, int depth) {
        ObjectNode object = F.objectNode();
        int size = random.nextInt(depth == 0 ? 6 : 4);
        for (int i = 0; i < size; i++) {
            object.set(KEYS[random.nextInt(KEYS.length)], value(random, depth));
        }
        return object;
    }

    private static ArrayNode array(Random random, int depth) {
        ArrayNode array = F.arrayNode();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
            array.add(value(random, depth));
        }
        return array;
    }

    /** One edit somewhere in the tree: a value replaced, a key added or removed, an element inserted, removed, moved. */
    private static void edit(Random random, JsonNode node, int depth) {
        List<JsonNode> children = new ArrayList<>();
        node.elements().forEachRemaining(child -> {
            if (child.isContainerNode()) {
                children.add(child);
            }
        });
        if (!children.isEmpty() && random.nextInt(3) > 0) {
            edit(random, children.get(random.nextInt(children.size())), depth + 1);
            return;
        }
        if (node instanceof ObjectNode object) {
            String key = KEYS[random.nextInt(KEYS.length)];
            if (object.has(key) && random.nextBoolean()) {
                object.remove(key);
            } else {
                object.set(key, value(random, depth));
            }
        } else if (node instanceof ArrayNode array) {
            int size = array.size();
            switch (size == 0 ? 0 : random.nextInt(4)) {
                case 0 -> array.insert(random.nextInt(size + 1), value(random, depth));
                case 1 -> array.remove(random.nextInt(size));
                case 2 -> array.set(random.nextInt(size), value(random, depth));
                default -> array.add(array.remove(random.nextInt(size)));
            }
        }
    }
}
