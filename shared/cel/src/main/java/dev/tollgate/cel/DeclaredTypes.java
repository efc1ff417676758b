package dev.tollgate.cel;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;

import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;

/**
 * Static types for some of an environment's variables (instead of {@code dyn}), with the object types they use: the
 * {@code variables} of a composition (each its expression's type, as the API server's composition environment
 * declares them, admission/plugin/cel/composition.go) and, for type checking, {@code object}, {@code oldObject} and
 * {@code params} from OpenAPI schemas ({@link SchemaTypes}). Immutable. Object types are compared by name, so each
 * distinct type needs its own name.
 */
public final class DeclaredTypes {

    private final Map<String, CelType> variables;

    private DeclaredTypes(Map<String, CelType> variables) {
        this.variables = Map.copyOf(variables);
    }

    public static DeclaredTypes none() {
        return new DeclaredTypes(Map.of());
    }

    /** An object type with these fields (in the API server: apiservercel.NewObjectType). */
    public static StructType objectType(String name, Map<String, CelType> fields) {
        Map<String, CelType> copy = new LinkedHashMap<>(fields);
        return StructType.create(name, com.google.common.collect.ImmutableSet.copyOf(copy.keySet()),
                f -> Optional.ofNullable(copy.get(f)));
    }

    /**
     * {@code request} and {@code namespaceObject} as the API server declares them for admission expressions
     * (Kubernetes staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go: BuildRequestType,
     * BuildNamespaceType); {@code object}, {@code oldObject}, {@code params} and {@code variables} stay dyn.
     */
    static DeclaredTypes admission() {
        CelType str = SimpleType.STRING;
        CelType strings = ListType.create(str);
        StructType gvk = objectType("kubernetes.GroupVersionKind", fields("group", str, "version", str, "kind", str));
        StructType gvr = objectType("kubernetes.GroupVersionResource",
                fields("group", str, "version", str, "resource", str));
        StructType userInfo = objectType("kubernetes.UserInfo", fields("username", str, "uid", str,
                "groups", strings, "extra", MapType.create(str, strings)));
        StructType request = objectType("kubernetes.AdmissionRequest", fields("kind", gvk, "resource", gvr,
                "subResource", str, "requestKind", gvk, "requestResource", gvr, "requestSubResource", str,
                "name", str, "namespace", str, "operation", str, "userInfo", userInfo, "dryRun", SimpleType.BOOL,
                "options", SimpleType.DYN));
        StructType spec = objectType("kubernetes.NamespaceSpec", fields("finalizers", strings));
        StructType condition = objectType("kubernetes.NamespaceCondition", fields("status", str, "type", str,
                "lastTransitionTime", SimpleType.TIMESTAMP, "message", str, "reason", str));
        StructType status = objectType("kubernetes.NamespaceStatus",
                fields("conditions", ListType.create(condition), "phase", str));
        StructType metadata = objectType("kubernetes.NamespaceMetadata", fields("name", str, "generateName", str,
                "namespace", str, "labels", MapType.create(str, str), "annotations", MapType.create(str, str),
                "UID", str, "creationTimestamp", SimpleType.TIMESTAMP, "deletionGracePeriodSeconds", SimpleType.INT,
                "deletionTimestamp", SimpleType.TIMESTAMP, "generation", SimpleType.INT, "resourceVersion", str,
                "finalizers", strings));
        StructType namespace = objectType("kubernetes.Namespace",
                fields("metadata", metadata, "spec", spec, "status", status));
        return none().with("request", request).with("namespaceObject", namespace);
    }

    private static Map<String, CelType> fields(Object... nameTypePairs) {
        Map<String, CelType> m = new LinkedHashMap<>();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            m.put((String) nameTypePairs[i], (CelType) nameTypePairs[i + 1]);
        }
        return m;
    }

    /** These types, then {@code other}'s (which win). */
    DeclaredTypes and(DeclaredTypes other) {
        Map<String, CelType> m = new LinkedHashMap<>(variables);
        m.putAll(other.variables);
        return new DeclaredTypes(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeclaredTypes d && d.variables.equals(variables);
    }

    @Override
    public int hashCode() {
        return variables.hashCode();
    }

    /** These types with {@code name} declared as {@code type}. */
    public DeclaredTypes with(String name, CelType type) {
        Map<String, CelType> m = new LinkedHashMap<>(variables);
        m.put(name, type);
        return new DeclaredTypes(m);
    }

    public Map<String, CelType> variables() {
        return variables;
    }

    boolean isEmpty() {
        return variables.isEmpty();
    }

    /** A type provider that knows every object type reachable from the declared ones. */
    CelTypeProvider typeProvider() {
        Map<String, CelType> structs = new LinkedHashMap<>();
        variables.values().forEach(t -> collect(t, structs));
        return new CelTypeProvider() {
            @Override
            public ImmutableCollection<CelType> types() {
                return ImmutableList.copyOf(structs.values());
            }

            @Override
            public Optional<CelType> findType(String typeName) {
                return Optional.ofNullable(structs.get(typeName));
            }
        };
    }

    private static void collect(CelType t, Map<String, CelType> out) {
        if (t instanceof StructType s) {
            if (out.putIfAbsent(s.name(), s) != null) {
                return;
            }
            List<CelType> fieldTypes = new ArrayList<>();
            s.fields().forEach(f -> fieldTypes.add(f.type()));
            fieldTypes.forEach(f -> collect(f, out));
            return;
        }
        Collection<CelType> params = t.parameters();
        params.forEach(p -> collect(p, out));
    }
}
