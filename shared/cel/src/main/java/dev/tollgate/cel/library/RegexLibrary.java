package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.CheckedCall;
import dev.tollgate.cel.internal.GoRegexp;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' regex library: {@code s.find(re)} (first match or ''), {@code s.findAll(re)} and
 * {@code s.findAll(re, n)} (at most n matches; n &lt; 0 means all). RE2 syntax, linear time (re2j), like Go's regexp.
 * Literal patterns are compiled with the program; a bad one is a compile error.
 */
public final class RegexLibrary implements KubeLibrary {

    private static final int CACHE_LIMIT = 512;
    private static final Map<String, Pattern> CACHE = new ConcurrentHashMap<>();

    @Override
    public List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("find",
                        newMemberOverload("string_find_string", SimpleType.STRING, SimpleType.STRING,
                                SimpleType.STRING)),
                newFunctionDeclaration("findAll",
                        newMemberOverload("string_find_all_string", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING),
                        newMemberOverload("string_find_all_string_int", ListType.create(SimpleType.STRING),
                                SimpleType.STRING, SimpleType.STRING, SimpleType.INT)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_find_string", String.class, String.class, (s, re) -> {
                    Matcher m = pattern(re).matcher(s);
                    return m.find() ? m.group() : "";
                }),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class,
                        (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
    }

    /**
     * A literal pattern of {@code find}/{@code findAll} is compiled when the program is built, as the API server's
     * regex optimizations do (k8s.io/apiserver/pkg/cel/library/regex.go FindRegexOptimization,
     * FindAllRegexOptimization): a bad one fails the program with Go's regexp error. ({@code matches} literals are
     * cel-go's validator's: {@link dev.tollgate.cel.internal.LiteralValidators}.)
     */
    @Override
    public void programErrors(CheckedCall call, List<String> errors) {
        if (!call.function().equals("find") && !call.function().equals("findAll")) {
            return;
        }
        List<dev.cel.common.ast.CelExpr> ops = call.operands();
        if (ops.size() < 2) {
            return;
        }
        call.literalString(ops.get(1)).ifPresent(re -> {
            try {
                GoRegexp.compile(re);
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
        });
    }

    private static List<String> findAll(String s, String re, long n) {
        List<String> out = new ArrayList<>();
        if (n == 0) {
            return out;
        }
        Matcher m = pattern(re).matcher(s);
        while (m.find() && (n < 0 || out.size() < n)) {
            out.add(m.group());
        }
        return out;
    }

    static Pattern pattern(String re) {
        Pattern p = CACHE.get(re);
        if (p == null) {
            p = GoRegexp.compile(re);   // k8s regex.go: types.WrapErr(err) of regexp.Compile
            if (CACHE.size() >= CACHE_LIMIT) {
                CACHE.clear();
            }
            CACHE.put(re, p);
        }
        return p;
    }
}
