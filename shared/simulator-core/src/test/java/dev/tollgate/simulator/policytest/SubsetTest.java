package dev.tollgate.simulator.policytest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** "The object, or a part of it": what an expected tree asks of the actual one, and the diff's projection. */
class SubsetTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static JsonNode y(String text) throws Exception {
        return YAML.readTree(text);
    }

    private static final String ACTUAL = """
            metadata: {name: web, labels: {app: web, team: shop}}
            spec:
              replicas: 3
              containers: [{name: a, image: "x:1"}, {name: b, image: "y:2"}]
            """;

    @Test
    void mappingsAreComparedByTheExpectedKeysOnly() throws Exception {
        assertTrue(Subset.matches(y("metadata: {labels: {team: shop}}"), y(ACTUAL)));
        assertTrue(Subset.matches(y("{}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("metadata: {labels: {team: web}}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("metadata: {annotations: {a: b}}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("spec: {replicas: {n: 3}}"), y(ACTUAL)), "a mapping is no scalar");
    }

    @Test
    void listsHaveTheSameLengthAndMatchElementByElement() throws Exception {
        assertTrue(Subset.matches(y("spec: {containers: [{name: a}, {image: 'y:2'}]}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("spec: {containers: [{name: a}]}"), y(ACTUAL)), "one container is missing");
        assertFalse(Subset.matches(y("spec: {containers: [{name: b}, {name: a}]}"), y(ACTUAL)), "order counts");
    }

    @Test
    void numbersByValueAndNullForAnAbsentField() throws Exception {
        assertTrue(Subset.matches(y("spec: {replicas: 3.0}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("spec: {replicas: '3'}"), y(ACTUAL)), "a string is no number");
        assertTrue(Subset.matches(y("spec: {initContainers: null}"), y(ACTUAL)));
        assertFalse(Subset.matches(y("spec: {replicas: null}"), y(ACTUAL)));
    }

    @Test
    void theProjectionKeepsWhatTheExpectationIsAbout() throws Exception {
        assertEquals(y("metadata: {labels: {team: shop}}\nspec: {containers: [{name: a}, {name: b, image: 'y:2'}]}"),
                Subset.project(y("metadata: {labels: {team: x}}\nspec: {containers: [{name: a}]}"), y(ACTUAL)));
        assertEquals(y("spec: {replicas: 3}"), Subset.project(y("spec: {replicas: null, paused: true}"), y(ACTUAL)),
                "what stands where an absence is expected is shown; what is missing is left out");
    }
}
