package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;

import java.util.List;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/** Kubernetes' jsonpatch library: {@code jsonpatch.escapeKey(k)} escapes '~' and '/' for a JSON Pointer (RFC 6901). */
public final class JsonPatchLibrary implements KubeLibrary {

    @Override
    public List<CelFunctionDecl> functions() {
        return List.of(newFunctionDeclaration("jsonpatch.escapeKey",
                newGlobalOverload("string_jsonpatch_escape_key", SimpleType.STRING, SimpleType.STRING)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(CelFunctionBinding.from("string_jsonpatch_escape_key", String.class,
                k -> k.replace("~", "~0").replace("/", "~1")));
    }
}
