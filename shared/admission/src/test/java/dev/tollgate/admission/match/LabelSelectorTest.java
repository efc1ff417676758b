package dev.tollgate.admission.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Table of selector semantics, as metav1.LabelSelector defines them. */
class LabelSelectorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return s == null ? null : JSON.readTree(s);
    }

    private static Map<String, String> labels(String spec) {
        Map<String, String> m = new HashMap<>();
        if (spec != null && !spec.isBlank()) {
            for (String kv : spec.split(";")) {
                String[] p = kv.split("=", 2);
                m.put(p[0], p.length > 1 ? p[1] : "");
            }
        }
        return m;
    }

    @ParameterizedTest(name = "{0} on [{1}] -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', nullValues = "NULL", textBlock = """
            NULL                                                                          | a=1          | true
            `{}`                                                                          |              | true
            `{"matchLabels":{"a":"1"}}`                                                   | a=1;b=2      | true
            `{"matchLabels":{"a":"1"}}`                                                   | a=2          | false
            `{"matchLabels":{"a":"1"}}`                                                   |              | false
            `{"matchLabels":{"a":"1","b":"2"}}`                                           | a=1          | false
            `{"matchLabels":{"a":""}}`                                                    | a=           | true
            `{"matchExpressions":[{"key":"a","operator":"In","values":["1","2"]}]}`       | a=2          | true
            `{"matchExpressions":[{"key":"a","operator":"In","values":["1","2"]}]}`       | a=3          | false
            `{"matchExpressions":[{"key":"a","operator":"In","values":["1"]}]}`           |              | false
            `{"matchExpressions":[{"key":"a","operator":"NotIn","values":["1"]}]}`        | a=2          | true
            `{"matchExpressions":[{"key":"a","operator":"NotIn","values":["1"]}]}`        | a=1          | false
            `{"matchExpressions":[{"key":"a","operator":"NotIn","values":["1"]}]}`        |              | true
            `{"matchExpressions":[{"key":"a","operator":"Exists"}]}`                      | a=           | true
            `{"matchExpressions":[{"key":"a","operator":"Exists"}]}`                      | b=1          | false
            `{"matchExpressions":[{"key":"a","operator":"DoesNotExist"}]}`                | b=1          | true
            `{"matchExpressions":[{"key":"a","operator":"DoesNotExist"}]}`                | a=1          | false
            `{"matchLabels":{"a":"1"},"matchExpressions":[{"key":"b","operator":"Exists"}]}` | a=1;b=   | true
            `{"matchLabels":{"a":"1"},"matchExpressions":[{"key":"b","operator":"Exists"}]}` | a=1      | false
            `{"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["kube-system"]}]}` | kubernetes.io/metadata.name=kube-system | false
            """)
    void matches(String selector, String labelSpec, boolean expected) throws Exception {
        assertEquals(expected, LabelSelector.parse(json(selector)).matches(labels(labelSpec)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `[]`                                                                     | expected an object
            `{"matchLabel":{}}`                                                      | unknown field
            `{"matchLabels":{"a":1}}`                                                | expected a string
            `{"matchLabels":{"bad key":"1"}}`                                        | not a valid label key
            `{"matchLabels":{"a":"bad value!"}}`                                     | not a valid label value
            `{"matchExpressions":{}}`                                                | expected an array
            `{"matchExpressions":[{"operator":"Exists"}]}`                           | key: required
            `{"matchExpressions":[{"key":"a","operator":"Equals","values":["1"]}]}`  | not a valid operator
            `{"matchExpressions":[{"key":"a","operator":"In"}]}`                     | must be specified when operator is In
            `{"matchExpressions":[{"key":"a","operator":"NotIn","values":[]}]}`      | must be specified when operator is NotIn
            `{"matchExpressions":[{"key":"a","operator":"Exists","values":["1"]}]}`  | may not be specified
            """)
    void rejectsInvalidSelectors(String selector, String message) throws Exception {
        var e = assertThrows(IllegalArgumentException.class, () -> LabelSelector.parse(json(selector)));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
