package dev.tollgate.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** RFC 6902 operations and RFC 6901 pointers, as the API server applies a webhook's patch. */
class JsonPatchApplyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `{"a":1}`              | `[{"op":"add","path":"/b","value":2}]`                     | `{"a":1,"b":2}`
            `{"a":[1,3]}`          | `[{"op":"add","path":"/a/1","value":2}]`                   | `{"a":[1,2,3]}`
            `{"a":[1]}`            | `[{"op":"add","path":"/a/-","value":2}]`                   | `{"a":[1,2]}`
            `{"a":1}`              | `[{"op":"add","path":"/a","value":{"x":null}}]`            | `{"a":{"x":null}}`
            `{"a":1,"b":2}`        | `[{"op":"remove","path":"/a"}]`                            | `{"b":2}`
            `{"a":[1,2,3]}`        | `[{"op":"remove","path":"/a/0"}]`                          | `{"a":[2,3]}`
            `{"a":1}`              | `[{"op":"replace","path":"/a","value":[1]}]`               | `{"a":[1]}`
            `{"a":{"b":1},"c":{}}` | `[{"op":"move","from":"/a/b","path":"/c/d"}]`              | `{"a":{},"c":{"d":1}}`
            `{"a":[1,2,3]}`        | `[{"op":"move","from":"/a/0","path":"/a/2"}]`              | `{"a":[2,3,1]}`
            `{"a":{"b":1}}`        | `[{"op":"copy","from":"/a","path":"/c"}]`                  | `{"a":{"b":1},"c":{"b":1}}`
            `{"a":"x"}`            | `[{"op":"test","path":"/a","value":"x"},{"op":"add","path":"/b","value":1}]` | `{"a":"x","b":1}`
            `{"a/b":1,"m~n":2}`    | `[{"op":"replace","path":"/a~1b","value":3},{"op":"remove","path":"/m~0n"}]` | `{"a/b":3}`
            `{"~1":1}`             | `[{"op":"add","path":"/~01","value":2}]`                   | `{"~1":2}`
            `{"":1}`               | `[{"op":"replace","path":"/","value":2}]`                  | `{"":2}`
            `{"a":1}`              | `[{"op":"replace","path":"","value":[]}]`                  | `[]`
            """)
    void applies(String doc, String patch, String expected) throws Exception {
        JsonNode original = json(doc);
        assertEquals(json(expected), JsonPatches.apply(json(patch), original));
        assertEquals(json(doc), original, "the target is not modified");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `{"op":"remove","path":"/missing"}`          | no member 'missing'
            `{"op":"add","path":"/a/b/c","value":1}`     | no member 'b'
            `{"op":"add","path":"/arr/5","value":1}`     | out of bounds
            `{"op":"add","path":"/arr/01","value":1}`    | not an array index
            `{"op":"test","path":"/a","value":2}`        | test failed
            `{"op":"move","from":"/a","path":"/a/x"}`    | own children
            `{"op":"add","path":"a","value":1}`          | must start with '/'
            `{"op":"add","path":"/~2","value":1}`        | invalid escape
            `{"op":"add","path":"/x"}`                   | 'value' is required
            `{"op":"frobnicate","path":"/a"}`            | unknown op
            `{"path":"/a"}`                              | 'op' must be a string
            """)
    void rejectsWhatDoesNotApply(String op, String message) throws Exception {
        var e = assertThrows(IllegalArgumentException.class,
                () -> JsonPatches.apply(json("[" + op + "]"), json("{\"a\":{\"k\":1},\"arr\":[1]}")));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void pointerSegmentsUnescapeTildeLast() {
        assertEquals(List.of("a/b", "~1", "x~y"), JsonPatches.parsePointer("/a~1b/~01/x~0y"));
        assertEquals(List.of(), JsonPatches.parsePointer(""));
    }
}
