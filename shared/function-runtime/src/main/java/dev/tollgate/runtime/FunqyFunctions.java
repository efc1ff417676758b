package dev.tollgate.runtime;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.AdmissionPolicy;
import dev.tollgate.admission.conversion.ConversionPolicy;
import io.quarkus.funqy.runtime.FunctionInvoker;
import io.quarkus.funqy.runtime.FunctionRecorder;

/**
 * Ties policies to the Funqy functions that serve them: each policy named {@code n} must have a {@code @Funq("n")}
 * method taking an {@link IncomingReview} (an {@link IncomingConversion} for a conversion policy), declared on the
 * policy's own class; otherwise the function would answer
 * 404 for a path its webhook.yaml declares. Checked at startup, so a missing or misnamed entry point stops the
 * function with one line that says what to add.
 *
 * <p>Funqy reads a POST body with an ObjectReader it keeps per function, made at static init from a copy of the
 * application's ObjectMapper, so runtime configuration cannot reach its parser limits. At startup each policy's
 * function is given a reader of the codec's own mapper instead, which never checks for data after the value: the
 * input types' deserializers read only the body's first token on the event loop, and the codec parses the body (once,
 * under its limits: body size, depth, string length, token count, duplicate keys) when the function runs, on its
 * worker thread.
 */
public final class FunqyFunctions {

    private FunqyFunctions() {
    }

    /** The Funqy invoker of {@code name}, or null when Funqy serves no such function. */
    public static FunctionInvoker invoker(String name) {
        return FunctionRecorder.registry == null ? null : FunctionRecorder.registry.matchInvoker(name);
    }

    static void serveWithCodec(PolicyDirectory policies, AdmissionCodec codec) {
        requireOneFunctionPerPolicy(policies);
        // The conversion codec shares the admission codec's mapper: one parser configuration for every body.
        ObjectReader reviews = codec.mapper().readerFor(IncomingReview.class)
                .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        ObjectReader conversions = codec.mapper().readerFor(IncomingConversion.class)
                .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        for (AdmissionPolicy policy : policies.all()) {
            invoker(policy.name()).getBindingContext().put(ObjectReader.class.getName(), reviews);
        }
        for (ConversionPolicy policy : policies.conversions()) {
            invoker(policy.name()).getBindingContext().put(ObjectReader.class.getName(), conversions);
        }
    }

    static void requireOneFunctionPerPolicy(PolicyDirectory policies) {
        List<String> problems = new ArrayList<>();
        for (AdmissionPolicy policy : policies.all()) {
            check(policy, policy.name(), IncomingReview.class, problems);
        }
        for (ConversionPolicy policy : policies.conversions()) {
            check(policy, policy.name(), IncomingConversion.class, problems);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
    }

    /** {@code policy} has a {@code @Funq(name)} method on its own class that takes {@code input}. */
    private static void check(Object policy, String name, Class<?> input, List<String> problems) {
        FunctionInvoker invoker = invoker(name);
        Class<?> policyClass = userClass(policy.getClass());
        if (invoker == null) {
            problems.add("policy " + policyClass.getName() + " has no Funqy function: add @Funq(\"" + name
                    + "\") public Uni<ReviewAnswer> ...(" + input.getSimpleName() + " review) "
                    + "{ return review.answer(this); }");
        } else if (invoker.getInputType() != input || !invoker.getTargetClass().isAssignableFrom(policyClass)) {
            problems.add("Funqy function " + name + " (" + invoker.getTargetClass().getName() + "."
                    + invoker.getMethod().getName() + ") must be declared on " + policyClass.getName()
                    + " and take an " + input.getSimpleName());
        }
    }

    /** The bean class behind a CDI client proxy. */
    private static Class<?> userClass(Class<?> type) {
        return type.getName().endsWith("_ClientProxy") || type.getName().contains("_Subclass")
                ? type.getSuperclass() : type;
    }
}
