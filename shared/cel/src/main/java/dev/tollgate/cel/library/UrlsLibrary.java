package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.List;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' urls library: {@code url(s)}, {@code isURL(s)}, {@code getScheme()}, {@code getHost()},
 * {@code getHostname()}, {@code getPort()}, {@code getEscapedPath()}, {@code getQuery()}.
 */
public final class UrlsLibrary implements KubeLibrary {

    public static final OpaqueType URL = OpaqueType.create("kubernetes.URL");

    @Override
    public List<CelFunctionDecl> functions() {
        dev.cel.common.types.CelType s = SimpleType.STRING;
        return List.of(
                newFunctionDeclaration("url", newGlobalOverload("string_to_url", URL, s)),
                newFunctionDeclaration("isURL", newGlobalOverload("is_url_string", SimpleType.BOOL, s)),
                newFunctionDeclaration("getScheme", newMemberOverload("url_get_scheme", s, URL)),
                newFunctionDeclaration("getHost", newMemberOverload("url_get_host", s, URL)),
                newFunctionDeclaration("getHostname", newMemberOverload("url_get_hostname", s, URL)),
                newFunctionDeclaration("getPort", newMemberOverload("url_get_port", s, URL)),
                newFunctionDeclaration("getEscapedPath", newMemberOverload("url_get_escaped_path", s, URL)),
                newFunctionDeclaration("getQuery", newMemberOverload("url_get_query",
                        MapType.create(s, ListType.create(s)), URL)),
                newFunctionDeclaration("string", newGlobalOverload("url_to_string", s, URL)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_url", String.class, Url::parse),
                CelFunctionBinding.from("is_url_string", String.class, Url::isValid),
                CelFunctionBinding.from("url_get_scheme", Url.class, u -> u.scheme),
                CelFunctionBinding.from("url_get_host", Url.class, u -> u.host),
                CelFunctionBinding.from("url_get_hostname", Url.class, Url::hostname),
                CelFunctionBinding.from("url_get_port", Url.class, Url::port),
                CelFunctionBinding.from("url_get_escaped_path", Url.class, Url::escapedPath),
                CelFunctionBinding.from("url_get_query", Url.class, Url::query),
                CelFunctionBinding.from("url_to_string", Url.class, Url::toString));
    }
}
