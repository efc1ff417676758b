package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.List;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' quantity library: {@code quantity(s)}, {@code isQuantity(s)}, {@code sign()}, {@code isInteger()},
 * {@code asInteger()}, {@code asApproximateFloat()}, {@code add(q|int)}, {@code sub(q|int)},
 * {@code isLessThan(q)}, {@code isGreaterThan(q)}, {@code compareTo(q)}; quantities compare equal by value.
 */
public final class QuantityLibrary implements KubeLibrary {

    public static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");

    @Override
    public List<CelFunctionDecl> functions() {
        dev.cel.common.types.CelType b = SimpleType.BOOL;
        dev.cel.common.types.CelType i = SimpleType.INT;
        return List.of(
                newFunctionDeclaration("quantity", newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                newFunctionDeclaration("isQuantity", newGlobalOverload("is_quantity_string", b, SimpleType.STRING)),
                newFunctionDeclaration("sign", newMemberOverload("quantity_sign", i, QUANTITY)),
                newFunctionDeclaration("isInteger", newMemberOverload("quantity_is_integer", b, QUANTITY)),
                newFunctionDeclaration("asInteger", newMemberOverload("quantity_as_integer", i, QUANTITY)),
                newFunctionDeclaration("asApproximateFloat",
                        newMemberOverload("quantity_as_approximate_float", SimpleType.DOUBLE, QUANTITY)),
                newFunctionDeclaration("add", newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, i)),
                newFunctionDeclaration("sub", newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, i)),
                newFunctionDeclaration("isLessThan", newMemberOverload("quantity_less", b, QUANTITY, QUANTITY)),
                newFunctionDeclaration("isGreaterThan", newMemberOverload("quantity_greater", b, QUANTITY, QUANTITY)),
                newFunctionDeclaration("compareTo", newMemberOverload("quantity_compare_to", i, QUANTITY, QUANTITY)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, Quantity::parse),
                CelFunctionBinding.from("is_quantity_string", String.class, Quantity::isValid),
                CelFunctionBinding.from("quantity_sign", Quantity.class, Quantity::sign),
                CelFunctionBinding.from("quantity_is_integer", Quantity.class, Quantity::isInteger),
                CelFunctionBinding.from("quantity_as_integer", Quantity.class, Quantity::asInteger),
                CelFunctionBinding.from("quantity_as_approximate_float", Quantity.class,
                        Quantity::asApproximateFloat),
                CelFunctionBinding.from("quantity_add", Quantity.class, Quantity.class, Quantity::add),
                CelFunctionBinding.from("quantity_add_int", Quantity.class, Long.class,
                        (q, n) -> q.add(new Quantity(java.math.BigDecimal.valueOf(n)))),
                CelFunctionBinding.from("quantity_sub", Quantity.class, Quantity.class, Quantity::sub),
                CelFunctionBinding.from("quantity_sub_int", Quantity.class, Long.class,
                        (q, n) -> q.sub(new Quantity(java.math.BigDecimal.valueOf(n)))),
                CelFunctionBinding.from("quantity_less", Quantity.class, Quantity.class, (a, c) -> a.compareTo(c) < 0),
                CelFunctionBinding.from("quantity_greater", Quantity.class, Quantity.class,
                        (a, c) -> a.compareTo(c) > 0),
                CelFunctionBinding.from("quantity_compare_to", Quantity.class, Quantity.class,
                        (a, c) -> (long) Integer.signum(a.compareTo(c))));
    }
}
