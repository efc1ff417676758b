package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.List;
import java.util.Set;

import com.google.common.primitives.UnsignedLong;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.CelCompare;
import dev.tollgate.cel.internal.CheckedCall;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' lists library: {@code isSorted()}, {@code sum()}, {@code min()}, {@code max()}, {@code indexOf(x)},
 * {@code lastIndexOf(x)}. Declared once per function for {@code list(T)}; the element types each function accepts
 * are checked at compile time (as the API server's overloads do) and again at run time for dyn lists.
 */
public final class ListsLibrary implements KubeLibrary {

    private static final TypeParamType T = TypeParamType.create("T");
    private static final ListType LIST_T = ListType.create(T);
    private static final Set<CelKind> SUMMABLE = Set.of(CelKind.INT, CelKind.UINT, CelKind.DOUBLE, CelKind.DURATION);
    private static final Set<CelKind> COMPARABLE = Set.of(CelKind.INT, CelKind.UINT, CelKind.DOUBLE, CelKind.BOOL,
            CelKind.STRING, CelKind.BYTES, CelKind.DURATION, CelKind.TIMESTAMP);

    @Override
    public List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("isSorted", newMemberOverload("list_is_sorted", SimpleType.BOOL, LIST_T)),
                newFunctionDeclaration("sum", newMemberOverload("list_sum", T, LIST_T)),
                newFunctionDeclaration("min", newMemberOverload("list_min", T, LIST_T)),
                newFunctionDeclaration("max", newMemberOverload("list_max", T, LIST_T)),
                newFunctionDeclaration("indexOf", newMemberOverload("list_index_of", SimpleType.INT, LIST_T, T)),
                newFunctionDeclaration("lastIndexOf",
                        newMemberOverload("list_last_index_of", SimpleType.INT, LIST_T, T)),
                newFunctionDeclaration(SORT_BY_KEYS, dev.cel.common.CelOverloadDecl.newGlobalOverload(
                        "list_sort_by_keys", LIST_T, LIST_T, ListType.create(TypeParamType.create("K")))));
    }

    private static final String SORT_BY_KEYS = "@sortByAssociatedKeys";

    /** {@code list.sortBy(e, key)} expands, as in cel-go, to sorting the list by {@code list.map(e, key)}. */
    @Override
    public List<dev.cel.parser.CelMacro> macros() {
        return List.of(dev.cel.parser.CelMacro.newReceiverMacro("sortBy", 2, (f, target, args) -> {
            if (args.get(0).getKind() != dev.cel.common.ast.CelExpr.ExprKind.Kind.IDENT) {
                return java.util.Optional.of(f.reportError("sortBy(var, ...) variable name must be a simple identifier"));
            }
            String v = args.get(0).ident().name();
            String accu = f.getAccumulatorVarName();
            dev.cel.common.ast.CelExpr keys = f.fold(v, f.copy(target), accu, f.newList(), f.newBoolLiteral(true),
                    f.newGlobalCall("_+_", f.newIdentifier(accu), f.newList(f.copy(args.get(1)))),
                    f.newIdentifier(accu));
            return java.util.Optional.of(f.newGlobalCall(SORT_BY_KEYS, target, keys));
        }));
    }

    @Override
    public void validate(CheckedCall call, List<String> errors) {
        Set<CelKind> allowed = switch (call.function()) {
            case "sum" -> SUMMABLE;
            case "min", "max", "isSorted" -> COMPARABLE;
            default -> null;
        };
        if (allowed == null || call.target().isEmpty() || !call.args().isEmpty()) {
            return;
        }
        CelType target = call.typeOf().apply(call.target().get());
        if (target instanceof ListType list) {
            CelKind elem = list.elemType().kind();
            if (elem != CelKind.DYN && elem != CelKind.TYPE_PARAM && elem != CelKind.ANY && !allowed.contains(elem)) {
                errors.add("found no matching overload for '" + call.function() + "' applied to '"
                        + dev.cel.common.types.CelTypes.format(target) + ".()'");
            }
        }
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_is_sorted", List.class, ListsLibrary::isSorted),
                CelFunctionBinding.from("list_sum", List.class, ListsLibrary::sum),
                CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1, "min")),
                CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1, "max")),
                CelFunctionBinding.from("list_index_of", List.class, Object.class, (l, x) -> indexOf(l, x, false)),
                CelFunctionBinding.from("list_last_index_of", List.class, Object.class,
                        (l, x) -> indexOf(l, x, true)),
                CelFunctionBinding.from("list_sort_by_keys", List.class, List.class, ListsLibrary::sortByKeys));
    }

    private static List<Object> sortByKeys(List<?> list, List<?> keys) {
        if (list.size() != keys.size()) {
            throw new IllegalArgumentException("sortBy: the list and its keys differ in size");
        }
        Integer[] order = new Integer[list.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> CelCompare.compare(keys.get(a), keys.get(b)));
        List<Object> out = new java.util.ArrayList<>(list.size());
        for (Integer i : order) {
            out.add(list.get(i));
        }
        return out;
    }

    private static boolean isSorted(List<?> list) {
        for (int i = 1; i < list.size(); i++) {
            if (CelCompare.compare(list.get(i - 1), list.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    private static Object sum(List<?> list) {
        if (list.isEmpty()) {
            return 0L;
        }
        Object acc = null;
        for (Object o : list) {
            acc = acc == null ? checkSummable(o) : add(acc, o);
        }
        return acc;
    }

    private static Object checkSummable(Object o) {
        if (o instanceof Long || o instanceof Double || o instanceof UnsignedLong
                || o instanceof com.google.protobuf.Duration || o instanceof java.time.Duration) {
            return o;
        }
        throw new IllegalArgumentException("no such overload: sum() of a list of " + CelCompare.typeName(o));
    }

    private static Object add(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            try {
                return Math.addExact(x, y);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("integer overflow in sum()");
            }
        }
        if (a instanceof Double x && b instanceof Double y) {
            return x + y;
        }
        if (a instanceof UnsignedLong x && b instanceof UnsignedLong y) {
            return x.plus(y);
        }
        if (a instanceof java.time.Duration x && b instanceof java.time.Duration y) {
            return x.plus(y);
        }
        if (a instanceof com.google.protobuf.Duration x && b instanceof com.google.protobuf.Duration y) {
            java.time.Duration d = java.time.Duration.ofSeconds(x.getSeconds(), x.getNanos())
                    .plus(java.time.Duration.ofSeconds(y.getSeconds(), y.getNanos()));
            return com.google.protobuf.Duration.newBuilder().setSeconds(d.getSeconds()).setNanos(d.getNano()).build();
        }
        throw new IllegalArgumentException("no such overload: sum() of a list mixing " + CelCompare.typeName(a)
                + " and " + CelCompare.typeName(b));
    }

    private static Object extreme(List<?> list, int sign, String name) {
        if (list.isEmpty()) {
            throw new IllegalArgumentException(name + " called on empty list");
        }
        Object best = list.get(0);
        CelCompare.compare(best, best); // rejects element types that have no order
        for (int i = 1; i < list.size(); i++) {
            Object o = list.get(i);
            if (Integer.signum(CelCompare.compare(o, best)) == sign) {
                best = o;
            }
        }
        return best;
    }

    private static long indexOf(List<?> list, Object x, boolean last) {
        if (last) {
            for (int i = list.size() - 1; i >= 0; i--) {
                if (CelCompare.equal(list.get(i), x)) {
                    return i;
                }
            }
        } else {
            for (int i = 0; i < list.size(); i++) {
                if (CelCompare.equal(list.get(i), x)) {
                    return i;
                }
            }
        }
        return -1L;
    }
}
