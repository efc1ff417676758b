package dev.tollgate.cel.internal;

import java.util.List;
import java.util.Optional;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;

/** A function call in a checked expression, as libraries see it when they validate at compile time. */
public record CheckedCall(String function, Optional<CelExpr> target, List<CelExpr> args,
        java.util.function.Function<CelExpr, CelType> typeOf) {

    /** The target then the arguments, i.e. all operands in order. */
    public List<CelExpr> operands() {
        if (target.isEmpty()) {
            return args;
        }
        List<CelExpr> all = new java.util.ArrayList<>();
        all.add(target.get());
        all.addAll(args);
        return all;
    }

    /** The constant string at this operand position, if it is a literal. */
    public Optional<String> literalString(CelExpr e) {
        if (e.getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && e.constant().getKind() == dev.cel.common.ast.CelConstant.Kind.STRING_VALUE) {
            return Optional.of(e.constant().stringValue());
        }
        return Optional.empty();
    }
}
