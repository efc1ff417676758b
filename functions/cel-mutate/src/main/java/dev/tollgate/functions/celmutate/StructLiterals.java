package dev.tollgate.functions.celmutate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.cel.common.CelMutableAst;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelMutableExpr;
import dev.cel.common.ast.CelMutableExpr.CelMutableCall;
import dev.cel.common.ast.CelMutableExpr.CelMutableMap;
import dev.cel.common.ast.CelMutableExpr.CelMutableStruct;
import dev.cel.common.navigation.CelNavigableMutableAst;
import dev.cel.common.navigation.CelNavigableMutableExpr;
import dev.cel.parser.CelParser;
import dev.cel.parser.CelParserFactory;
import dev.cel.parser.CelUnparserFactory;

/**
 * The object types of MutatingAdmissionPolicy expressions, {@code JSONPatch{op: ..., path: ..., value: ...}} and
 * {@code Object{spec: Object.spec{...}}}, for the shared Kubernetes CEL environment, which has no such types: each
 * literal of those types is rewritten into a map literal with the same fields ({@code {"op": dyn(...), ...}}, values
 * wrapped in {@code dyn()}, optional fields' values too, so fields of different types can share one map), then the expression is compiled as
 * usual. The result is read back as JSON. A JSONPatch field other than op, path, from and value is a compile error,
 * as it is upstream.
 *
 * <p>This is an adapter local to this function (see the README); it goes away if shared/cel declares these types.
 */
final class StructLiterals {

    static final String JSON_PATCH = "JSONPatch";
    static final String OBJECT = "Object";
    private static final Set<String> JSON_PATCH_FIELDS = Set.of("op", "path", "from", "value");

    /** A literal of an unknown type, or a JSONPatch with an unknown field. */
    static final class RewriteException extends Exception {
        RewriteException(String message) {
            super(message);
        }
    }

    // Parsing without macros keeps has(), all(), map()... as plain calls, so the source text round-trips unchanged
    // and the shared environment expands them when it compiles the result.
    private static final CelParser PARSER = CelParserFactory.standardCelParserBuilder()
            .setOptions(CelOptions.current().enableOptionalSyntax(true).build())
            .build();

    private StructLiterals() {
    }

    /**
     * The expression with every JSONPatch and Object literal replaced by a map literal; the expression itself when
     * it has none. Syntax errors are left for the real compiler to report.
     */
    static String rewrite(String expression) throws RewriteException {
        if (!expression.contains("{")) {
            return expression;
        }
        CelValidationResult parsed = PARSER.parse(expression);
        if (parsed.hasError()) {
            return expression;
        }
        CelMutableAst ast;
        try {
            ast = CelMutableAst.fromCelAst(parsed.getAst());
        } catch (dev.cel.common.CelValidationException e) {
            return expression;
        }
        List<CelMutableExpr> structs = new ArrayList<>();
        long[] maxId = { 0 };
        CelNavigableMutableAst.fromAst(ast).getRoot().allNodes().forEach((CelNavigableMutableExpr node) -> {
            CelMutableExpr e = node.expr();
            maxId[0] = Math.max(maxId[0], e.id());
            if (e.getKind() == CelExpr.ExprKind.Kind.STRUCT) {
                structs.add(e);
            }
        });
        if (structs.isEmpty()) {
            return expression;
        }
        long nextId = maxId[0] + 1;
        for (CelMutableExpr e : structs) {
            CelMutableStruct struct = e.struct();
            String type = struct.messageName().startsWith(".") ? struct.messageName().substring(1)
                    : struct.messageName();
            boolean isPatch = type.equals(JSON_PATCH);
            if (!isPatch && !type.equals(OBJECT) && !type.startsWith(OBJECT + ".")) {
                throw new RewriteException("unknown type '" + type + "': expected JSONPatch, Object or Object.<field path>");
            }
            List<CelMutableMap.Entry> entries = new ArrayList<>();
            for (CelMutableStruct.Entry field : struct.entries()) {
                if (isPatch && !JSON_PATCH_FIELDS.contains(field.fieldKey())) {
                    throw new RewriteException("JSONPatch has no field '" + field.fieldKey() + "' (op, path, from, value)");
                }
                CelMutableExpr key = CelMutableExpr.ofConstant(nextId++, CelConstant.ofValue(field.fieldKey()));
                // optional entries too: the value of '?f: opt' is dyn then, so it shares the map with the others
                // (shared/cel checks literals for one value type, as cel-go does)
                CelMutableExpr value = CelMutableExpr.ofCall(nextId++, CelMutableCall.create("dyn", field.value()));
                entries.add(CelMutableMap.Entry.create(nextId++, key, value, field.optionalEntry()));
            }
            e.setMap(CelMutableMap.create(entries));
        }
        return CelUnparserFactory.newUnparser().unparse(ast.toParsedAst());
    }
}
