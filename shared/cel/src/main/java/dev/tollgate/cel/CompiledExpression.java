package dev.tollgate.cel;

import dev.cel.common.types.CelType;
import dev.cel.runtime.CelRuntime;

/**
 * One expression, compiled once (at startup) and evaluated any number of times, from any thread, through an
 * {@link Evaluation} of the {@link ExpressionSet} that compiled it.
 */
public final class CompiledExpression {

    final ExpressionSet owner;
    final String source;
    final ResultType resultType;
    final CelType checkedType;
    final CelRuntime.Program program;

    CompiledExpression(ExpressionSet owner, String source, ResultType resultType, CelType checkedType,
            CelRuntime.Program program) {
        this.owner = owner;
        this.source = source;
        this.resultType = resultType;
        this.checkedType = checkedType;
        this.program = program;
    }

    /** The source text. */
    public String source() {
        return source;
    }

    public ResultType resultType() {
        return resultType;
    }

    /** The type the checker inferred, in CEL notation (e.g. {@code bool}, {@code dyn}, {@code list(string)}). */
    public String checkedType() {
        return dev.cel.common.types.CelTypes.format(checkedType);
    }

    @Override
    public String toString() {
        return source;
    }
}
