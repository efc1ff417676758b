package dev.tollgate.cel;

import java.util.List;

import dev.cel.runtime.CelFunctionBinding;

/**
 * {@code list[i]} with cel-go's errors, replacing cel-java's {@code index_list} overload ("Index out of bounds: 5"):
 * a list of the object's JSON (the API server's unstructured values, k8s.io/apiserver/pkg/cel/common/values.go
 * {@code unstructuredList.Get}) says {@code index out of bounds: 5}; a CEL list (a literal, a function's result)
 * says {@code index '5' out of range in list size '2'} (cel-go common/types/list.go {@code baseList.Get}); a double
 * index must be a whole number, else {@code unsupported index value 1.5 in list} (cel-go common/types/list.go
 * {@code IndexOrError}).
 */
final class ListIndex {

    /** The overload id of the standard function this replaces. */
    static final String OVERLOAD = "index_list";

    private ListIndex() {
    }

    static CelFunctionBinding binding() {
        return CelFunctionBinding.from(OVERLOAD, List.class, Number.class, ListIndex::get);
    }

    static Object get(List<?> list, Number index) {
        long i;
        if (index instanceof Double d) {
            if (d != Math.rint(d) || Double.isInfinite(d) || Math.abs(d) > Long.MAX_VALUE) {
                throw new IllegalArgumentException("unsupported index value " + dev.tollgate.cel.internal.CelGoSemantics.formatDouble(d) + " in list");
            }
            i = d.longValue();
        } else {
            i = index.longValue();
        }
        if (i < 0 || i >= list.size()) {
            if (list instanceof CelValues.JsonList) {
                throw new IllegalArgumentException("index out of bounds: " + i);
            }
            throw new IllegalArgumentException("index '" + i + "' out of range in list size '" + list.size() + "'");
        }
        return list.get((int) i);
    }
}
