package dev.tollgate.cel;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.NullValue;
import com.google.protobuf.Timestamp;

import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;

/**
 * The API server's rules for the type of an expression's result, and its messages.
 *
 * <p>At compile time (Kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go,
 * CompileCELExpression): the checked type must be exactly one of the declared return types, else "must evaluate to
 * bool but got string" (one type) or "must evaluate to one of [string null_type] but got int". The declared types
 * are those of policy/validating (ValidationCondition: bool; AuditAnnotationCondition: string, null_type;
 * messageExpression: string) and webhook/matchconditions (MatchCondition: bool).
 *
 * <p>As there, object-like values are {@code dyn}, {@code request} and {@code namespaceObject} have the API
 * server's object types and composition variables their expressions' types, so in the admission environment a
 * {@code dyn} result is a compile error (in an environment of custom {@code dyn} variables it is checked when
 * evaluated). The result is checked again when evaluated (a value of another type is an
 * evaluation error with the same wording); an auditAnnotation value uses the API server's run-time message
 * (policy/validating/validator.go: "valueExpression '...' resulted in unsupported return type: int. Return type must
 * be either string or null.").
 */
final class ResultTypes {

    private ResultTypes() {
    }

    /**
     * The compile error for a checked result type, or null when it is acceptable. The type must be exactly the
     * declared one ({@code ast.OutputType().IsExactType(returnType)}): {@code dyn} is refused ("must evaluate to bool
     * but got dyn"), as the API server refuses a bare {@code object.spec.flag} as a validation. With
     * {@code dynRefused} false (environments of custom variables, which have no API-server counterpart) a dyn
     * result is left to the check when evaluated.
     */
    static String compileTimeError(CelType checked, ResultType wanted, boolean dynRefused) {
        if (wanted == ResultType.ANY || (!dynRefused && checked.kind() == CelKind.DYN)) {
            return null;
        }
        boolean ok = switch (wanted) {
            case BOOL -> checked.kind() == CelKind.BOOL;
            case STRING -> checked.kind() == CelKind.STRING;
            case STRING_OR_NULL -> checked.kind() == CelKind.STRING || checked.kind() == CelKind.NULL_TYPE;
            case ANY -> true;
        };
        if (ok) {
            return null;
        }
        return "must evaluate to " + declared(wanted) + " but got " + celGoName(checked);
    }

    /** The evaluation error for a value of the wrong type. */
    static String runTimeError(String source, ResultType wanted, Object value) {
        if (wanted == ResultType.STRING_OR_NULL) {
            return "valueExpression '" + source + "' resulted in unsupported return type: " + runtimeTypeName(value)
                    + ". Return type must be either string or null.";
        }
        return "must evaluate to " + declared(wanted) + " but got " + runtimeTypeName(value);
    }

    private static String declared(ResultType wanted) {
        return switch (wanted) {
            case BOOL -> "bool";
            case STRING -> "string";
            case STRING_OR_NULL -> "one of [string null_type]";
            case ANY -> "any";
        };
    }

    /** cel-go's Type.String() for a checked type: cel-java's notation, with null's name as cel-go spells it. */
    static String celGoName(CelType type) {
        return type.kind() == CelKind.NULL_TYPE ? "null_type" : CelTypes.format(type);
    }

    /** cel-go's runtime type name of a value (ref.Val.Type()). */
    static String runtimeTypeName(Object v) {
        if (v == null || v instanceof NullValue) {
            return "null_type";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof UnsignedLong) {
            return "uint";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof ByteString) {
            return "bytes";
        }
        if (v instanceof List<?>) {
            return "list";
        }
        if (v instanceof Map<?, ?>) {
            return "map";
        }
        if (v instanceof Optional<?>) {
            return "optional_type";
        }
        if (v instanceof Timestamp) {
            return "google.protobuf.Timestamp";
        }
        if (v instanceof Duration) {
            return "google.protobuf.Duration";
        }
        return v.getClass().getSimpleName();
    }
}
