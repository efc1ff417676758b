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
 * Kubernetes' semver library: {@code semver(s)}, {@code semver(s, normalize)}, {@code isSemver(s)},
 * {@code isSemver(s, normalize)}, {@code major()}, {@code minor()}, {@code patch()}, {@code isLessThan(v)},
 * {@code isGreaterThan(v)}, {@code compareTo(v)}.
 */
public final class SemverLibrary implements KubeLibrary {

    public static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

    @Override
    public List<CelFunctionDecl> functions() {
        dev.cel.common.types.CelType s = SimpleType.STRING;
        dev.cel.common.types.CelType b = SimpleType.BOOL;
        dev.cel.common.types.CelType i = SimpleType.INT;
        return List.of(
                newFunctionDeclaration("semver", newGlobalOverload("string_to_semver", SEMVER, s),
                        newGlobalOverload("string_bool_to_semver", SEMVER, s, b)),
                newFunctionDeclaration("isSemver", newGlobalOverload("is_semver_string", b, s),
                        newGlobalOverload("is_semver_string_bool", b, s, b)),
                newFunctionDeclaration("major", newMemberOverload("semver_major", i, SEMVER)),
                newFunctionDeclaration("minor", newMemberOverload("semver_minor", i, SEMVER)),
                newFunctionDeclaration("patch", newMemberOverload("semver_patch", i, SEMVER)),
                newFunctionDeclaration("isLessThan", newMemberOverload("semver_less", b, SEMVER, SEMVER)),
                newFunctionDeclaration("isGreaterThan", newMemberOverload("semver_greater", b, SEMVER, SEMVER)),
                newFunctionDeclaration("compareTo", newMemberOverload("semver_compare_to", i, SEMVER, SEMVER)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_semver", String.class, v -> Semver.parse(v, false)),
                CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, Semver::parse),
                CelFunctionBinding.from("is_semver_string", String.class, v -> Semver.isValid(v, false)),
                CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, Semver::isValid),
                CelFunctionBinding.from("semver_major", Semver.class, v -> v.major),
                CelFunctionBinding.from("semver_minor", Semver.class, v -> v.minor),
                CelFunctionBinding.from("semver_patch", Semver.class, v -> v.patch),
                CelFunctionBinding.from("semver_less", Semver.class, Semver.class, (a, c) -> a.compareTo(c) < 0),
                CelFunctionBinding.from("semver_greater", Semver.class, Semver.class, (a, c) -> a.compareTo(c) > 0),
                CelFunctionBinding.from("semver_compare_to", Semver.class, Semver.class,
                        (a, c) -> (long) Integer.signum(a.compareTo(c))));
    }
}
