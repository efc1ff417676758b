package dev.tollgate.cel.internal;

import java.util.List;
import java.util.Map;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelVarDecl;
import dev.cel.runtime.CelFunctionBinding;

/**
 * One Kubernetes CEL library: its declarations (checked at compile time), its implementations (bound at run time),
 * and the constants it adds to every evaluation (type names such as {@code net.IP}).
 */
public interface KubeLibrary {

    List<CelFunctionDecl> functions();

    List<CelFunctionBinding> bindings();

    /** Parser macros this library adds. */
    default List<dev.cel.parser.CelMacro> macros() {
        return List.of();
    }

    default List<CelVarDecl> variables() {
        return List.of();
    }

    /** Values for {@link #variables()}, bound in every evaluation. */
    default Map<String, Object> constants() {
        return Map.of();
    }

    /** Extra compile-time checks this library makes on a checked expression (e.g. literal regexes). */
    default void validate(CheckedCall call, List<String> errors) {
    }

    /**
     * Errors of building the program for a checked expression (cel-go's {@code env.Program}), reported by the API
     * server after the checker's issues as "program instantiation failed: <error>", without a position.
     */
    default void programErrors(CheckedCall call, List<String> errors) {
    }
}
