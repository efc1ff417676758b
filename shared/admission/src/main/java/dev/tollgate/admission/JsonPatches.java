package dev.tollgate.admission;

import java.util.EnumSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.flipkart.zjsonpatch.DiffFlags;
import com.flipkart.zjsonpatch.JsonDiff;
import com.flipkart.zjsonpatch.JsonPatch;

/**
 * RFC 6902 JSON Patches between an original object and a policy's edited copy. Only add, remove and replace
 * operations are produced: they read plainly in audit logs and apply the same way everywhere. Keys holding
 * {@code ~} or {@code /} are escaped ({@code ~0}, {@code ~1}) by the pointer encoding.
 */
public final class JsonPatches {

    private static final EnumSet<DiffFlags> FLAGS = EnumSet.of(
            DiffFlags.OMIT_MOVE_OPERATION, DiffFlags.OMIT_COPY_OPERATION, DiffFlags.OMIT_VALUE_ON_REMOVE);

    private JsonPatches() {
    }

    /** The patch turning {@code original} into {@code edited}; an empty array when they are equal. */
    public static ArrayNode diff(JsonNode original, JsonNode edited) {
        if (original.equals(edited)) {
            return JsonNodeFactory.instance.arrayNode();
        }
        return (ArrayNode) JsonDiff.asJson(original, edited, FLAGS);
    }

    /** Applies a patch to a copy of {@code target}; the target itself is left unchanged. */
    public static JsonNode apply(JsonNode patch, JsonNode target) {
        return JsonPatch.apply(patch, target);
    }

    /** Escapes one key for use as a JSON Pointer segment: {@code ~} to {@code ~0}, {@code /} to {@code ~1}. */
    public static String escapeKey(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
