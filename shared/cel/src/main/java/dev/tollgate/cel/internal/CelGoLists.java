package dev.tollgate.cel.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.cel.runtime.CelFunctionBinding;

/**
 * The lists extension's {@code slice} and {@code flatten} with cel-go's errors (cel-go ext/lists.go {@code slice},
 * {@code flatten}): "cannot slice(3, 0), start index must be less than or equal to end index", "cannot slice(0, 10),
 * list is length 4", "cannot slice(-5, 10), negative indexes not supported", "level must be non-negative". cel-java's
 * own implementations say "Start index must be less than or equal to end index" without the call. These bindings
 * have cel-java's overload ids and are added after its extension, so they replace its two implementations (the
 * declarations stay cel-java's).
 */
public final class CelGoLists {

    private CelGoLists() {
    }

    public static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("list_slice", List.of(Collection.class, Long.class, Long.class),
                        args -> slice((Collection<?>) args[0], (Long) args[1], (Long) args[2])),
                CelFunctionBinding.from("list_flatten", Collection.class, l -> flatten(l, 1)),
                CelFunctionBinding.from("list_flatten_list_int", Collection.class, Long.class, CelGoLists::flatten));
    }

    static List<Object> slice(Collection<?> list, long start, long end) {
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException(
                    "cannot slice(" + start + ", " + end + "), negative indexes not supported");
        }
        if (start > end) {
            throw new IllegalArgumentException("cannot slice(" + start + ", " + end
                    + "), start index must be less than or equal to end index");
        }
        if (list.size() < end) {
            throw new IllegalArgumentException(
                    "cannot slice(" + start + ", " + end + "), list is length " + list.size());
        }
        return new ArrayList<>(new ArrayList<>(list).subList((int) start, (int) end));
    }

    static List<Object> flatten(Collection<?> list, long depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("level must be non-negative");
        }
        List<Object> out = new ArrayList<>();
        for (Object e : list) {
            if (e instanceof Collection<?> nested && depth > 0) {
                out.addAll(flatten(nested, depth - 1));
            } else {
                out.add(e);
            }
        }
        return out;
    }
}
