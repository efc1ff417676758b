package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

class JsonPatchesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Stream<Arguments> edits() {
        return Stream.of(
                Arguments.of("add a label with a slash in its key",
                        "{\"metadata\":{\"labels\":{\"a\":\"1\"}}}",
                        "{\"metadata\":{\"labels\":{\"a\":\"1\",\"app.kubernetes.io/name\":\"web\"}}}"),
                Arguments.of("keys with tilde and slash",
                        "{\"metadata\":{\"annotations\":{}}}",
                        "{\"metadata\":{\"annotations\":{\"x~y/z\":\"1\",\"~0~1\":\"2\"}}}"),
                Arguments.of("remove a key with a slash",
                        "{\"metadata\":{\"labels\":{\"example.com/team\":\"a\",\"b\":\"c\"}}}",
                        "{\"metadata\":{\"labels\":{\"b\":\"c\"}}}"),
                Arguments.of("replace inside arrays",
                        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"x\"},{\"name\":\"b\",\"image\":\"y\"}]}}",
                        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"x\",\"imagePullPolicy\":\"Always\"},"
                                + "{\"name\":\"b\",\"image\":\"z\"}]}}"),
                Arguments.of("add and remove array elements",
                        "{\"spec\":{\"tolerations\":[{\"key\":\"a\"},{\"key\":\"b\"},{\"key\":\"c\"}]}}",
                        "{\"spec\":{\"tolerations\":[{\"key\":\"c\"},{\"key\":\"a\"},{\"key\":\"d\"}]}}"),
                Arguments.of("create a missing parent object",
                        "{\"metadata\":{\"name\":\"x\"}}",
                        "{\"metadata\":{\"name\":\"x\",\"labels\":{\"k\":\"v\"}}}"),
                Arguments.of("types change", "{\"a\":1,\"b\":[1],\"c\":{\"d\":null}}",
                        "{\"a\":\"1\",\"b\":{\"0\":1},\"c\":{\"d\":false}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("edits")
    void patchAppliedToOriginalGivesExactlyTheEditedObject(String name, String original, String edited) {
        ObjectNode before = json(original);
        ObjectNode after = json(edited);
        ArrayNode patch = JsonPatches.diff(before, after);
        assertEquals(after, JsonPatches.apply(patch, before), () -> "patch " + patch);
        assertEquals(json(original), before, "diff and apply leave the original untouched");
        for (JsonNode op : patch) {
            String kind = op.path("op").asText();
            assertTrue(kind.equals("add") || kind.equals("remove") || kind.equals("replace"), op::toString);
        }
    }

    @Test
    void keysAreEscapedInPointers() {
        ArrayNode patch = JsonPatches.diff(json("{\"l\":{}}"), json("{\"l\":{\"app.kubernetes.io/name\":\"w\"}}"));
        assertEquals("/l/app.kubernetes.io~1name", patch.get(0).path("path").asText());
        assertEquals("a~0b~1c", JsonPatches.escapeKey("a~b/c"));
    }

    @Test
    void equalObjectsGiveAnEmptyPatch() {
        assertEquals(0, JsonPatches.diff(json("{\"a\":[1,{\"b\":2}]}"), json("{\"a\":[1,{\"b\":2}]}")).size());
    }
}
