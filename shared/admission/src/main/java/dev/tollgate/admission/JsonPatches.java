package dev.tollgate.admission;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;

/**
 * RFC 6902 JSON Patches. {@link #diff} (zjsonpatch) produces only add, remove and replace operations between an
 * original object and a policy's edited copy: they read plainly in audit logs and apply the same way everywhere.
 * {@link #apply} is this project's own RFC 6902/6901 implementation, because zjsonpatch's decodes pointer segments
 * such as {@code ~01} wrongly; applying patches is how tests and the simulator play the API server's part.
 */
public final class JsonPatches {

    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(
            DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION, DiffFlags.OMIT_VALUE_ON_REMOVE);

    private JsonPatches() {
    }

    /**
     * The patch turning {@code original} into {@code edited}; an empty array when they are equal. The operations are
     * zjsonpatch's (the same patch, in the same order), but objects, and arrays whose elements were only edited in
     * place, are walked here node by node: zjsonpatch compares whole subtrees for equality at every level before
     * descending, which made the diff of a pod's edited copy cost more than decoding the review. Arrays whose
     * elements were inserted, removed or reordered are left to zjsonpatch (its LCS alignment).
     */
    public static ArrayNode diff(JsonNode original, JsonNode edited) {
        Walk walk = new Walk();
        walk.diff(original, edited);
        return walk.patch;
    }

    /**
     * One diff: the patch so far and the path down to the nodes compared, made a pointer only for an operation (most
     * nodes match). Objects are walked with {@code forEachEntry}, which takes no entry object per field from a
     * review's compact objects, through two callbacks made once per diff; the object the walk of the other compares
     * against is held in {@link #counterpart}, set for each walk of an object and put back when it returns.
     */
    private static final class Walk {
        final ArrayNode patch = CompactNodeFactory.INSTANCE.arrayNode(); // its operations are small objects
        private final List<String> path = new ArrayList<>();
        private final BiConsumer<String, JsonNode> removedOrChanged = this::removedOrChanged;
        private final BiConsumer<String, JsonNode> added = this::added;
        private ObjectNode counterpart;

        void diff(JsonNode original, JsonNode edited) {
            if (original == edited) {
                return;
            }
            if (original.isObject() && edited.isObject()) {
                objects((ObjectNode) original, (ObjectNode) edited);
            } else if (original.isArray() && edited.isArray()) {
                arrays((ArrayNode) original, (ArrayNode) edited);
            } else if (!original.equals(edited)) {
                patch.addObject().put("op", "replace").put("path", pointer(path)).set("value", edited);
            }
        }

        /** As zjsonpatch: removals and changes in the original's key order, then additions in the edited one's. */
        private void objects(ObjectNode original, ObjectNode edited) {
            ObjectNode outer = counterpart;
            counterpart = edited;
            original.forEachEntry(removedOrChanged);
            counterpart = original;
            edited.forEachEntry(added);
            counterpart = outer;
        }

        /** A field of the original, against the edited object (the counterpart). */
        private void removedOrChanged(String name, JsonNode before) {
            JsonNode now = counterpart.get(name);
            path.add(name);
            if (now == null) {
                patch.addObject().put("op", "remove").put("path", pointer(path));
            } else {
                diff(before, now); // walks of nested objects put the counterpart back as they return
            }
            path.remove(path.size() - 1);
        }

        /** A field of the edited object, against the original (the counterpart). */
        private void added(String name, JsonNode now) {
            if (!counterpart.has(name)) {
                path.add(name);
                patch.addObject().put("op", "add").put("path", pointer(path)).set("value", now);
                path.remove(path.size() - 1);
            }
        }

        /**
         * Equal-length arrays whose changed elements equal no element of the other array: every element zjsonpatch's
         * longest common subsequence can hold is then an unchanged one at its own index, and it diffs the changed
         * ones pairwise at their index, as done here. Anything else (an insertion, a removal, a move) goes to
         * zjsonpatch.
         */
        private void arrays(ArrayNode original, ArrayNode edited) {
            int size = original.size();
            if (size == edited.size()) {
                boolean[] changed = new boolean[size];
                boolean any = false;
                for (int i = 0; i < size; i++) {
                    changed[i] = !original.get(i).equals(edited.get(i));
                    any |= changed[i];
                }
                if (!any) {
                    return;
                }
                if (editedInPlace(original, edited, changed)) {
                    for (int i = 0; i < size; i++) {
                        if (changed[i]) {
                            path.add(Integer.toString(i));
                            diff(original.get(i), edited.get(i));
                            path.remove(path.size() - 1);
                        }
                    }
                    return;
                }
            }
            String prefix = pointer(path);
            for (JsonNode op : JsonDiff.asJson(original, edited, FLAGS)) {
                patch.add(((ObjectNode) op).put("path", prefix + op.get("path").asText()));
            }
        }
    }

    private static String pointer(List<String> path) {
        StringBuilder pointer = new StringBuilder();
        for (String segment : path) {
            pointer.append('/').append(escapeKey(segment));
        }
        return pointer.toString();
    }

    /** Whether no changed element of either (equal-length) array equals any element of the other. */
    private static boolean editedInPlace(ArrayNode original, ArrayNode edited, boolean[] changed) {
        for (int i = 0; i < changed.length; i++) {
            if (!changed[i]) {
                continue;
            }
            for (int j = 0; j < changed.length; j++) {
                if (original.get(i).equals(edited.get(j)) || edited.get(i).equals(original.get(j))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Applies a patch to a copy of {@code target}; the target itself is left unchanged. All six operations of RFC
     * 6902 are supported; the patch applies atomically (a failing operation leaves no partial result behind).
     *
     * @throws IllegalArgumentException naming the failing operation when the patch is malformed or does not apply
     */
    public static JsonNode apply(JsonNode patch, JsonNode target) {
        if (patch == null || !patch.isArray()) {
            throw new IllegalArgumentException("a JSON Patch must be an array of operations");
        }
        JsonNode doc = target == null ? JsonNodeFactory.instance.nullNode() : target.deepCopy();
        for (int i = 0; i < patch.size(); i++) {
            JsonNode op = patch.get(i);
            try {
                doc = applyOne(op, doc);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("patch operation " + i + " " + op + ": " + e.getMessage(), e);
            }
        }
        return doc;
    }

    /** Escapes one key for use as a JSON Pointer segment: {@code ~} to {@code ~0}, {@code /} to {@code ~1}. */
    public static String escapeKey(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** Splits a JSON Pointer (RFC 6901) into unescaped segments; "" is the whole document. */
    public static List<String> parsePointer(String pointer) {
        List<String> out = new ArrayList<>();
        if (pointer.isEmpty()) {
            return out;
        }
        if (pointer.charAt(0) != '/') {
            throw new IllegalArgumentException("pointer '" + pointer + "' must start with '/'");
        }
        for (String raw : pointer.substring(1).split("/", -1)) {
            StringBuilder sb = new StringBuilder(raw.length());
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '~') {
                    char next = i + 1 < raw.length() ? raw.charAt(i + 1) : ' ';
                    if (next != '0' && next != '1') {
                        throw new IllegalArgumentException("pointer '" + pointer + "' has an invalid escape");
                    }
                    sb.append(next == '0' ? '~' : '/');
                    i++;
                } else {
                    sb.append(c);
                }
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static JsonNode applyOne(JsonNode op, JsonNode doc) {
        String kind = text(op, "op");
        List<String> path = parsePointer(text(op, "path"));
        return switch (kind) {
            case "add" -> add(doc, path, value(op));
            case "remove" -> {
                remove(doc, path);
                yield doc;
            }
            case "replace" -> {
                JsonNode value = value(op);
                if (path.isEmpty()) {
                    yield value.deepCopy();
                }
                remove(doc, path);
                yield add(doc, path, value);
            }
            case "move" -> {
                List<String> from = parsePointer(text(op, "from"));
                if (path.size() > from.size() && path.subList(0, from.size()).equals(from)) {
                    throw new IllegalArgumentException("cannot move a value into one of its own children");
                }
                JsonNode value = get(doc, from);
                if (from.isEmpty()) {
                    yield add(JsonNodeFactory.instance.nullNode(), path, value);
                }
                remove(doc, from);
                yield add(doc, path, value);
            }
            case "copy" -> add(doc, path, get(doc, parsePointer(text(op, "from"))).deepCopy());
            case "test" -> {
                if (!get(doc, path).equals(value(op))) {
                    throw new IllegalArgumentException("test failed");
                }
                yield doc;
            }
            default -> throw new IllegalArgumentException("unknown op '" + kind + "'");
        };
    }

    private static JsonNode add(JsonNode doc, List<String> path, JsonNode value) {
        JsonNode copy = value.deepCopy();
        if (path.isEmpty()) {
            return copy;
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode obj) {
            obj.set(last, copy);
        } else if (parent instanceof ArrayNode arr) {
            if (last.equals("-")) {
                arr.add(copy);
            } else {
                int index = index(last, arr.size() + 1);
                arr.insert(index, copy);
            }
        } else {
            throw new IllegalArgumentException("parent of '" + last + "' is not an object or array");
        }
        return doc;
    }

    private static void remove(JsonNode doc, List<String> path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("cannot remove the whole document");
        }
        JsonNode parent = get(doc, path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode obj) {
            if (!obj.has(last)) {
                throw new IllegalArgumentException("no member '" + last + "' to remove");
            }
            obj.remove(last);
        } else if (parent instanceof ArrayNode arr) {
            arr.remove(index(last, arr.size()));
        } else {
            throw new IllegalArgumentException("parent of '" + last + "' is not an object or array");
        }
    }

    private static JsonNode get(JsonNode doc, List<String> path) {
        JsonNode node = doc;
        for (String segment : path) {
            if (node.isObject()) {
                if (!node.has(segment)) {
                    throw new IllegalArgumentException("no member '" + segment + "'");
                }
                node = node.get(segment);
            } else if (node.isArray()) {
                node = node.get(index(segment, node.size()));
            } else {
                throw new IllegalArgumentException("cannot descend into '" + segment + "' of a " + node.getNodeType());
            }
        }
        return node;
    }

    /** An array index: digits without leading zeros, below {@code limit}. */
    private static int index(String segment, int limit) {
        if (segment.isEmpty() || !segment.chars().allMatch(Character::isDigit)
                || (segment.length() > 1 && segment.charAt(0) == '0') || segment.length() > 9) {
            throw new IllegalArgumentException("'" + segment + "' is not an array index");
        }
        int i = Integer.parseInt(segment);
        if (i >= limit) {
            throw new IllegalArgumentException("index " + i + " is out of bounds");
        }
        return i;
    }

    private static String text(JsonNode op, String field) {
        JsonNode v = op.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return v.textValue();
    }

    private static JsonNode value(JsonNode op) {
        if (!op.has("value")) {
            throw new IllegalArgumentException("'value' is required");
        }
        return op.get("value");
    }
}
