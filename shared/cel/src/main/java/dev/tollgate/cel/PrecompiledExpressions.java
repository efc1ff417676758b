package dev.tollgate.cel;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import com.google.protobuf.InvalidProtocolBufferException;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelProtoAbstractSyntaxTree;
import dev.cel.expr.CheckedExpr;

/**
 * Expressions parsed and type checked ahead of time (at build time, for the policies baked into a function), so that
 * {@link ExpressionSet#compile} only plans them. Each is kept as cel-java's checked AST in its protobuf form
 * ({@code CheckedExpr}, CEL's own serialization of a checked expression), under a key that names everything the
 * check depends on (the environment's variables, the composition variables, the result type and the source): an
 * expression compiled in any other environment misses, and is parsed and checked as usual.
 *
 * <p>Only expressions that compiled are kept; one that fails is compiled again and fails again with its message.
 * Process-wide: a function installs what its build recorded once, at startup ({@link #install}).
 */
public final class PrecompiledExpressions {

    private static volatile Map<String, CelAbstractSyntaxTree> installed = Map.of();
    /** Non-null while {@link #record} runs: what every successful compilation adds. */
    private static volatile Map<String, byte[]> recording;
    private static final AtomicInteger used = new AtomicInteger();

    private PrecompiledExpressions() {
    }

    /**
     * Makes these checked expressions (from {@link #record}) available to every later compilation. They are decoded
     * here, all at once: a native executable installs them when its image is built (shared/policy-bake's recorder
     * runs at static init), so its image heap holds the decoded trees and its start decodes nothing, where decoding
     * them one by one at startup was a third of a 100-policy start.
     *
     * @throws IllegalStateException for bytes that are not a {@code CheckedExpr}
     */
    public static void install(Map<String, byte[]> checked) {
        Map<String, CelAbstractSyntaxTree> decoded = new HashMap<>();
        checked.forEach((key, bytes) -> decoded.put(key, decode(key, bytes)));
        installed = Map.copyOf(decoded);
        used.set(0);
    }

    /** How many checked expressions are installed. */
    public static int installedCount() {
        return installed.size();
    }

    /** How many compilations since {@link #install} took their checked AST from here instead of checking. */
    public static int usedCount() {
        return used.get();
    }

    /**
     * Runs {@code compilations} and returns, by key, the checked AST of every expression it compiled successfully.
     * One recording at a time.
     */
    public static synchronized <T> Recorded<T> record(Supplier<T> compilations) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        recording = out;
        try {
            T result = compilations.get();
            return new Recorded<>(result, Map.copyOf(out));
        } finally {
            recording = null;
        }
    }

    /** What {@link #record} ran returned, and the checked expressions it compiled. */
    public record Recorded<T>(T result, Map<String, byte[]> checked) {
    }

    /** The checked AST installed under {@code key}, or null. */
    static CelAbstractSyntaxTree lookup(String key) {
        CelAbstractSyntaxTree ast = installed.get(key);
        if (ast != null) {
            used.incrementAndGet();
        }
        return ast;
    }

    private static CelAbstractSyntaxTree decode(String key, byte[] bytes) {
        try {
            return CelProtoAbstractSyntaxTree.fromCheckedExpr(CheckedExpr.parseFrom(bytes)).getAst();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("precompiled expression " + key + " is not a CheckedExpr", e);
        }
    }

    /** Keeps a successful compilation while recording. */
    static void compiled(String key, CelAbstractSyntaxTree checked) {
        Map<String, byte[]> r = recording;
        if (r != null) {
            synchronized (r) {
                r.put(key, CelProtoAbstractSyntaxTree.fromCelAst(checked).toCheckedExpr().toByteArray());
            }
        }
    }
}
