package dev.tollgate.functions.celpolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.AdmissionInput;
import dev.tollgate.cel.CelEvaluationError;
import dev.tollgate.cel.Evaluation;
import dev.tollgate.cel.KubeCel;
import dev.tollgate.cel.NamedExpression;
import dev.tollgate.cel.ResultType;
import dev.tollgate.functions.celpolicy.ValidatingPolicyDefinition.AuditAnnotation;
import dev.tollgate.functions.celpolicy.ValidatingPolicyDefinition.Binding;
import dev.tollgate.functions.celpolicy.ValidatingPolicyDefinition.Validation;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.cel.admission.NamespaceLookupException;
import dev.tollgate.cel.admission.NamespaceOptions;
import dev.tollgate.cel.admission.Namespaces;
import dev.tollgate.cel.admission.PolicyConfig;
import dev.tollgate.cel.admission.PolicyDispatcher;
import dev.tollgate.cel.admission.PolicyExpressions;
import dev.tollgate.cel.admission.PolicyHost;
import dev.tollgate.cel.admission.PolicyKind;
import dev.tollgate.cel.admission.PolicyExpressions.Compiled;
import dev.tollgate.cel.admission.PolicySpec.FailurePolicy;

/**
 * A set of ValidatingAdmissionPolicies and their bindings, compiled once and evaluated per request with the API
 * server's semantics (k8s.io/apiserver admission/plugin/policy/validating): matching, params, matchConditions,
 * validations with message/messageExpression/reason, auditAnnotations, failurePolicy for every kind of error, and
 * the bindings' validationActions. Loading, matching, params and namespaces are the {@link PolicyHost}'s; this
 * class is the kind ({@link #KIND}: how a definition compiles) and what a match runs (a validation outcome).
 * Thread-safe.
 */
public final class ValidatingPolicies extends PolicyHost<ValidatingPolicies.CompiledPolicy, Binding> {

    /** The API server drops a messageExpression result longer than this (celconfig). */
    static final int MAX_MESSAGE_EXPRESSION_LENGTH = PolicyExpressions.MAX_MESSAGE_EXPRESSION_LENGTH;

    static final PolicyConfig.Kinds<ValidatingPolicyDefinition, Binding> KINDS = new PolicyConfig.Kinds<>(
            ValidatingPolicyDefinition.API_VERSIONS, ValidatingPolicyDefinition.KIND,
            ValidatingPolicyDefinition.BINDING_KIND, ValidatingPolicyDefinition::parse, Binding::parse,
            ValidatingPolicyDefinition::spec, Binding::spec);

    /** This kind as the policy host serves it: each definition compiled, dispatched by its spec. */
    static final PolicyKind<CompiledPolicy, Binding> KIND = PolicyKind.of(KINDS, CompiledPolicy::new,
            c -> c.expressions.compileErrors(), c -> c.definition.spec(), "ValidatingAdmissionPolicies");

    /** One policy with everything compiled. */
    static final class CompiledPolicy {
        final ValidatingPolicyDefinition definition;
        final PolicyExpressions expressions;
        final List<Compiled> validations = new ArrayList<>();
        final List<Compiled> messages = new ArrayList<>();
        final List<Compiled> annotations = new ArrayList<>();
        final boolean usesNamespaceObject;

        CompiledPolicy(KubeCel cel, ValidatingPolicyDefinition definition) {
            this.definition = definition;
            this.expressions = new PolicyExpressions(cel, definition.spec());
            List<Validation> vs = definition.validations();
            for (int i = 0; i < vs.size(); i++) {
                Validation v = vs.get(i);
                validations.add(expressions.compile(v.expression(), ResultType.BOOL, "validations[" + i
                        + "].expression"));
                messages.add(v.messageExpression().isBlank() ? null : expressions.compile(v.messageExpression(),
                        ResultType.STRING, "validations[" + i + "].messageExpression"));
            }
            for (AuditAnnotation a : definition.auditAnnotations()) {
                annotations.add(expressions.compile(a.valueExpression(), ResultType.STRING_OR_NULL,
                        "auditAnnotations[" + a.key() + "].valueExpression"));
            }
            this.usesNamespaceObject = sources().anyMatch(s -> s.contains("namespaceObject"));
        }

        private Stream<String> sources() {
            ValidatingPolicyDefinition d = definition;
            return Stream.of(d.spec().variables().stream().map(NamedExpression::expression),
                    d.spec().matchConditions().stream().map(NamedExpression::expression),
                    d.validations().stream().flatMap(v -> Stream.of(v.expression(), v.messageExpression())),
                    d.auditAnnotations().stream().map(AuditAnnotation::valueExpression)).flatMap(s -> s);
        }

        String name() {
            return definition.name();
        }

        FailurePolicy failurePolicy() {
            return definition.spec().failurePolicy();
        }
    }

    private ValidatingPolicies(List<ConfigFiles.Document> documents, KubeCel cel, NamespaceOptions namespaces) {
        super(documents, cel, namespaces, KIND);
    }

    /**
     * Parses, validates and compiles the configuration documents.
     *
     * @throws PolicyConfig.InvalidConfigException for documents the API server would refuse, or that are not used
     */
    public static ValidatingPolicies load(List<ConfigFiles.Document> documents, KubeCel cel,
            Namespaces.Unknown unknownNamespaces) {
        return load(documents, cel, NamespaceOptions.config(unknownNamespaces));
    }

    /** As {@link #load(List, KubeCel, Namespaces.Unknown)}, with namespaces from where the options say. */
    public static ValidatingPolicies load(List<ConfigFiles.Document> documents, KubeCel cel,
            NamespaceOptions namespaces) {
        return new ValidatingPolicies(documents, cel, namespaces);
    }

    /**
     * Evaluates every policy binding that matches the request and combines their decisions. A namespaceObject that
     * cannot be read fails the whole request with the lookup's error, whatever the failurePolicy, as the API server's
     * dispatcher returns it (k8s.io/apiserver pkg/admission/plugin/policy/validating/dispatcher.go: an error without
     * a Status becomes a 500).
     */
    public Verdict validate(AdmissionRequest request) {
        try {
            return dispatch(request);
        } catch (NamespaceLookupException e) {
            return e.denial();
        }
    }

    private Verdict dispatch(AdmissionRequest request) {
        ValidationOutcome outcome = new ValidationOutcome();
        dispatch(request, new PolicyDispatcher.Handler<>() {
            @Override
            public void configError(CompiledPolicy policy, Binding binding, String message) {
                if (policy.failurePolicy() == FailurePolicy.Fail) {
                    outcome.deny(policy.name(), binding == null ? null : binding.name(), "", message);
                }
            }

            @Override
            public void evaluate(CompiledPolicy policy, Binding binding, ObjectNode param) {
                evaluateBinding(policy, binding, param, request, outcome);
            }
        });
        return outcome.verdict();
    }

    private void evaluateBinding(CompiledPolicy policy, Binding binding, ObjectNode param,
            AdmissionRequest request, ValidationOutcome outcome) {
        Decisions decisions = new Decisions(policy, binding, outcome);
        PolicyExpressions exprs = policy.expressions;
        if (exprs.variablesError() != null) {
            decisions.error(-1, exprs.variablesError());
            return;
        }
        // Looked up only for policies that use it; a failure propagates to validate().
        ObjectNode namespaceObject = policy.usesNamespaceObject
                ? namespaces(request).namespaceObject(request) : null;
        Evaluation evaluation = exprs.set().newEvaluation(AdmissionInput.of(request).withParams(param)
                .withNamespaceObject(namespaceObject));
        PolicyExpressions.ConditionResult match = exprs.matchConditions(evaluation);
        if (match.failed()) {
            decisions.error(-1, match.error());
            return;
        }
        if (!match.matches()) {
            return;
        }
        List<Validation> validations = policy.definition.validations();
        for (int i = 0; i < validations.size(); i++) {
            Compiled rule = policy.validations.get(i);
            if (rule.failed()) {
                decisions.error(i, rule.error());
                continue;
            }
            boolean passed;
            try {
                passed = evaluation.evaluateBool(rule.expression());
            } catch (CelEvaluationError e) {
                if (e.kind() == CelEvaluationError.Kind.COST_LIMIT) {
                    // As upstream: once the budget is spent, no further validation rules are run.
                    decisions.error(i, "validation failed due to running out of cost budget, no further validation"
                            + " rules will be run: " + e.getMessage());
                    return;
                }
                decisions.error(i, PolicyExpressions.describe(e));
                continue;
            }
            if (!passed) {
                String message;
                try {
                    message = failureMessage(validations.get(i), policy.messages.get(i), evaluation);
                } catch (CelEvaluationError e) {
                    decisions.error(i, "failed messageExpression: " + PolicyExpressions.describe(e));
                    return;
                }
                String reason = validations.get(i).reason().isEmpty() ? "Invalid" : validations.get(i).reason();
                decisions.deny(i, reason, message);
            }
        }
        List<AuditAnnotation> annotations = policy.definition.auditAnnotations();
        for (int i = 0; i < annotations.size(); i++) {
            auditAnnotation(policy, binding, annotations.get(i), policy.annotations.get(i), evaluation, outcome);
        }
    }

    /** The message of a failed validation ({@link PolicyExpressions#failureMessage}). */
    static String failureMessage(Validation validation, Compiled messageExpression, Evaluation evaluation)
            throws CelEvaluationError {
        return PolicyExpressions.failureMessage(validation.expression(), validation.message(), messageExpression,
                evaluation);
    }

    private static void auditAnnotation(CompiledPolicy policy, Binding binding, AuditAnnotation annotation,
            Compiled compiled, Evaluation evaluation, ValidationOutcome outcome) {
        String error;
        if (compiled.failed()) {
            error = compiled.error();
        } else {
            try {
                Object value = evaluation.evaluate(compiled.expression());
                if (value == null) {
                    return;
                }
                if (value instanceof String s) {
                    if (!s.isBlank()) {
                        outcome.annotate(ValidatingPolicyDefinition.AuditKeys.key(policy.name(), annotation.key()),
                                s.strip());
                    }
                    return;
                }
                error = "valueExpression '" + annotation.valueExpression() + "' resulted in unsupported return type: "
                        + value.getClass().getSimpleName() + ". Return type must be either string or null.";
            } catch (CelEvaluationError e) {
                error = PolicyExpressions.describe(e);
            }
        }
        // An annotation that cannot be computed denies under Fail (whatever the validationActions), as upstream.
        if (policy.failurePolicy() == FailurePolicy.Fail) {
            outcome.deny(policy.name(), binding.name(), "", error);
        }
    }

    /** Applies a binding's validationActions to the decisions of one evaluation. */
    private static final class Decisions {
        private final CompiledPolicy policy;
        private final Binding binding;
        private final ValidationOutcome outcome;

        Decisions(CompiledPolicy policy, Binding binding, ValidationOutcome outcome) {
            this.policy = policy;
            this.binding = binding;
            this.outcome = outcome;
        }

        /** An evaluation error: ignored under failurePolicy Ignore, a failed validation (no reason) under Fail. */
        void error(int index, String message) {
            if (policy.failurePolicy() == FailurePolicy.Fail) {
                deny(index, "", message);
            }
        }

        void deny(int index, String reason, String message) {
            for (ValidatingPolicyDefinition.ValidationAction action : binding.validationActions()) {
                switch (action) {
                    case Deny -> outcome.deny(policy.name(), binding.name(), reason, message);
                    case Warn -> outcome.warn(policy.name(), binding.name(), message);
                    case Audit -> outcome.auditFailure(policy.name(), binding, Math.max(index, 0), message);
                }
            }
        }
    }
}
