package dev.tollgate.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.cel.common.types.CelType;

/**
 * OpenAPI schemas as CEL types, as Kubernetes staging/src/k8s.io/apiserver/pkg/cel/common/schemas.go SchemaDeclType
 * declares them (with isResourceRoot, as admission/plugin/policy/validating/typechecking.go calls it).
 */
class SchemaTypesTest {

    static final JsonNode SCHEMA = Requests.json("""
            {'type':'object','properties':{
              'spec':{'type':'object','properties':{
                'replicas':{'type':'integer'}, 'ratio':{'type':'number'}, 'paused':{'type':'boolean'},
                'port':{'x-kubernetes-int-or-string':true},
                'labels':{'type':'object','additionalProperties':{'type':'string'}},
                'items':{'type':'array','items':{'type':'object','properties':{'name':{'type':'string'}}}},
                'since':{'type':'string','format':'date-time'}, 'timeout':{'type':'string','format':'duration'},
                'data':{'type':'string','format':'byte'},
                'untyped':{'description':'no type: not exposed'},
                'raw':{'type':'object','x-kubernetes-preserve-unknown-fields':true},
                'tree':{'$ref':'#/node'},
                'embedded':{'type':'object','x-kubernetes-embedded-resource':true,
                            'properties':{'spec':{'type':'object'}}}}}}}
            """);
    static final JsonNode NODE = Requests.json("{'type':'object','properties':{'child':{'$ref':'#/node'},"
            + "'value':{'type':'string'}}}");

    static String typeOf(String expr) throws CelCompileException {
        CelType t = SchemaTypes.ofResource(SCHEMA, "Thing", ref -> ref.equals("#/node") ? NODE : null);
        return KubeCel.standard().compileVariables(List.of(), DeclaredTypes.none().with("object", t))
                .compile(expr, ResultType.ANY).checkedType();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "object.spec.replicas             | int",
        "object.spec.ratio                | double",
        "object.spec.paused               | bool",
        "object.spec.port                 | dyn",
        "object.spec.labels               | map(string, string)",
        "object.spec.items[0].name        | string",
        "object.spec.since                | google.protobuf.Timestamp",
        "object.spec.timeout              | google.protobuf.Duration",
        "object.spec.data                 | bytes",
        "object.spec.tree.value           | string",
        "object.spec.tree.child           | dyn",
        "object.metadata.name             | string",
        "object.apiVersion                | string",
        "object.spec.embedded.kind        | string",
        "object.spec.embedded.metadata.generateName | string"})
    void typesAsUpstream(String expr, String type) throws Exception {
        assertEquals(type, typeOf(expr));
    }

    /** Not exposed: a property without a type, unknown fields of a preserve-unknown-fields object. */
    @Test
    void unexposedFieldsAreUndefined() {
        assertEquals("ERROR: <input>:1:12: undefined field 'untyped'\n | object.spec.untyped\n | ...........^",
                assertThrows(CelCompileException.class, () -> typeOf("object.spec.untyped")).details());
        assertThrows(CelCompileException.class, () -> typeOf("object.spec.raw.anything"));
        assertThrows(CelCompileException.class, () -> typeOf("object.metadata.labels"));
    }
}
