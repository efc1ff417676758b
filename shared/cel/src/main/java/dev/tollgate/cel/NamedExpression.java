package dev.tollgate.cel;

import java.util.Objects;

/** A named expression, as in {@code variables[]} (name, expression) and {@code matchConditions[]}. */
public record NamedExpression(String name, String expression) {
    public NamedExpression {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(expression, "expression");
    }
}
