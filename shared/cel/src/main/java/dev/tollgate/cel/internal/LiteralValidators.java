package dev.tollgate.cel.internal;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.SimpleType;

/**
 * The AST validators the API server's base environment adds after type-checking (Kubernetes
 * staging/src/k8s.io/apiserver/pkg/cel/environment/base.go: {@code cel.HomogeneousAggregateLiterals()} and, since
 * 1.29, {@code cel.ValidateDurationLiterals()}, {@code cel.ValidateTimestampLiterals()},
 * {@code cel.ValidateRegexLiterals()}), as cel-go cel/validator.go defines them:
 *
 * <ul>
 * <li>every list literal's elements, and every map literal's keys and values, have one type (exactly: {@code dyn}
 * and {@code int} differ; an optional element {@code ?x} counts as x's value type), except literals that are
 * arguments (at any depth of nested literals) of {@code format}, which cel-go exempts for
 * {@code '%s %d'.format([name, count])} (ext/strings.go stringFormatValidator). Message: "expected type 'A' but found
 * 'B'".</li>
 * <li>{@code timestamp(<literal>)} and {@code duration(<literal>)} are evaluated at compile time; one that fails is
 * the compile error "invalid timestamp argument" / "invalid duration argument", at the literal.</li>
 * <li>{@code cel.ValidateRegexLiterals()}: the first argument of {@code matches} ({@code s.matches('x++')}'s
 * pattern), when a literal, must compile as a Go regexp, else "invalid matches argument", at the literal.</li>
 * </ul>
 */
public final class LiteralValidators {

    private static final Set<String> HOMOGENEOUS_EXEMPT_FUNCTIONS = Set.of("format");
    private static final Set<String> LITERAL_CONVERSIONS = Set.of("timestamp", "duration");

    private LiteralValidators() {
    }

    /** Reports (expression id, message) for each violation in a checked AST. */
    public static void validate(Cel cel, CelAbstractSyntaxTree ast, BiConsumer<Long, String> report) {
        CelNavigableAst.fromAst(ast).getRoot().allNodes().forEach(node -> {
            CelExpr e = node.expr();
            switch (e.getKind()) {
                case LIST -> {
                    if (!inExemptFunction(node)) {
                        checkList(ast, e, report);
                    }
                }
                case MAP -> {
                    if (!inExemptFunction(node)) {
                        checkMap(ast, e, report);
                    }
                }
                case CALL -> {
                    checkLiteralConversion(cel, ast, e, report);
                    checkRegexLiteral(e, report);
                }
                default -> {
                }
            }
        });
    }

    private static void checkList(CelAbstractSyntaxTree ast, CelExpr list, BiConsumer<Long, String> report) {
        List<CelExpr> elements = list.list().elements();
        List<Integer> optional = list.list().optionalIndices();
        CelType first = null;
        for (int i = 0; i < elements.size(); i++) {
            CelType t = typeOf(ast, elements.get(i), optional.contains(i));
            if (first == null) {
                first = t;
            } else if (!equivalent(first, t)) {
                report.accept(elements.get(i).id(), mismatch(first, t));
                return;
            }
        }
    }

    private static void checkMap(CelAbstractSyntaxTree ast, CelExpr map, BiConsumer<Long, String> report) {
        CelType keyType = null;
        CelType valueType = null;
        for (CelExpr.CelMap.Entry entry : map.map().entries()) {
            CelType k = typeOf(ast, entry.key(), false);
            CelType v = typeOf(ast, entry.value(), entry.optionalEntry());
            if (keyType == null) {
                keyType = k;
                valueType = v;
                continue;
            }
            if (!equivalent(keyType, k)) {
                report.accept(entry.key().id(), mismatch(keyType, k));
            }
            if (!equivalent(valueType, v)) {
                report.accept(entry.value().id(), mismatch(valueType, v));
            }
        }
    }

    private static CelType typeOf(CelAbstractSyntaxTree ast, CelExpr e, boolean optionalEntry) {
        CelType t = ast.getType(e.id()).orElse(SimpleType.DYN);
        if (optionalEntry && t instanceof dev.cel.common.types.OptionalType && !t.parameters().isEmpty()) {
            return t.parameters().get(0);
        }
        return t;
    }

    /** cel-go Type.IsEquivalentType: same kind, name and parameters; type parameter names do not matter. */
    static boolean equivalent(CelType a, CelType b) {
        if (a.kind() != b.kind() || a.parameters().size() != b.parameters().size()) {
            return false;
        }
        if (a.kind() != CelKind.TYPE_PARAM && !a.name().equals(b.name())) {
            return false;
        }
        for (int i = 0; i < a.parameters().size(); i++) {
            if (!equivalent(a.parameters().get(i), b.parameters().get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String mismatch(CelType expected, CelType actual) {
        return "expected type '" + CelTypes.format(expected) + "' but found '" + CelTypes.format(actual) + "'";
    }

    private static boolean inExemptFunction(CelNavigableExpr node) {
        Optional<CelNavigableExpr> parent = node.parent();
        while (parent.isPresent()) {
            CelExpr p = parent.get().expr();
            if (p.getKind() == CelExpr.ExprKind.Kind.CALL) {
                return HOMOGENEOUS_EXEMPT_FUNCTIONS.contains(p.call().function());
            }
            if (p.getKind() != CelExpr.ExprKind.Kind.LIST && p.getKind() != CelExpr.ExprKind.Kind.MAP) {
                return false;
            }
            parent = parent.get().parent();
        }
        return false;
    }

    /** cel-go formatValidator with compileRegex: argument 0 of every {@code matches} call, when a literal. */
    private static void checkRegexLiteral(CelExpr call, BiConsumer<Long, String> report) {
        if (!call.call().function().equals("matches") || call.call().args().isEmpty()) {
            return;
        }
        CelExpr arg = call.call().args().get(0);
        if (arg.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || arg.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
            return;
        }
        try {
            GoRegexp.compile(arg.constant().stringValue());
        } catch (IllegalArgumentException e) {
            report.accept(arg.id(), "invalid matches argument");
        }
    }

    /** cel-go formatValidator with evalCall: a conversion of a literal must succeed when compiled. */
    private static void checkLiteralConversion(Cel cel, CelAbstractSyntaxTree ast, CelExpr call,
            BiConsumer<Long, String> report) {
        String function = call.call().function();
        if (!LITERAL_CONVERSIONS.contains(function) || call.call().target().isPresent()
                || call.call().args().size() != 1) {
            return;
        }
        CelExpr arg = call.call().args().get(0);
        if (arg.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || (arg.constant().getKind() != CelConstant.Kind.STRING_VALUE
                        && arg.constant().getKind() != CelConstant.Kind.INT64_VALUE)) {
            return;
        }
        try {
            CelValidationResult checked = cel.check(CelAbstractSyntaxTree.newParsedAst(call, ast.getSource()));
            cel.createProgram(checked.getAst()).eval();
        } catch (Exception | LinkageError e) {
            report.accept(arg.id(), "invalid " + function + " argument");
        }
    }
}
