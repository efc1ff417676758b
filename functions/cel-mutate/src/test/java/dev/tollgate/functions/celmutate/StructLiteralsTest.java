package dev.tollgate.functions.celmutate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.tollgate.cel.CelValues;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.ResultType;
import dev.tollgate.cel.admission.StructLiterals;
import dev.tollgate.testing.Manifests;

/**
 * The JSONPatch/Object literal adapter (shared/cel-admission StructLiterals): rewritten expressions compile in the
 * shared environment and mean the same.
 */
class StructLiteralsTest {

    private static final KubeCel SELF = KubeCel.builder().variables("self").build();

    private static JsonNode eval(String expression, String selfYaml) throws Exception {
        var compiled = SELF.compile(StructLiterals.rewrite(expression).text(), ResultType.ANY);
        return MutatingPolicies.copyWithPlainNumbers(CelValues.toJson(SELF.newEvaluation(Map.of("self", Manifests.parse(selfYaml))).evaluate(compiled)));
    }

    @Test
    void theDocumentationsJsonPatchExample() throws Exception {
        JsonNode patch = eval("""
                [
                  JSONPatch{
                    op: "add", path: "/spec/initContainers/-",
                    value: Object.spec.initContainers{
                      name: "mesh-proxy",
                      image: "mesh-proxy/v1.0.0",
                      restartPolicy: "Always"
                    }
                  }
                ]""", "{}");
        assertEquals(Manifests.parse("""
                {p: [{op: add, path: /spec/initContainers/-,
                      value: {name: mesh-proxy, image: mesh-proxy/v1.0.0, restartPolicy: Always}}]}
                """).get("p"), patch);
    }

    @Test
    void macrosOptionalsAndStringsSurviveTheRewrite() throws Exception {
        JsonNode out = eval("""
                Object{
                  metadata: Object.metadata{
                    labels: self.items.filter(i, has(i.name) && i.name.startsWith("a"))
                        .map(i, i.name).exists(n, n == "ab") ? {"found": "yes {not a struct}"} : {},
                    ?annotations: self.?extra.optMap(e, {"extra": e})
                  },
                  spec: Object.spec{replicas: size(self.items)}
                }""", "{items: [{name: ab}, {name: b}, {other: 1}], extra: x}");
        assertEquals(Manifests.parse("""
                {metadata: {labels: {found: "yes {not a struct}"}, annotations: {extra: x}}, spec: {replicas: 3}}
                """), out);
        JsonNode withoutExtra = eval("Object{metadata: Object.metadata{name: 'n', ?annotations: self.?extra}}", "{}");
        assertEquals(Manifests.parse("{metadata: {name: n}}"), withoutExtra);
    }

    @Test
    void expressionsWithoutLiteralsAreUnchanged() throws Exception {
        String e = "self.items.all(i, i.name != '{')";
        assertEquals(e, StructLiterals.rewrite(e).text());
    }
}
