package dev.tollgate.cel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.tollgate.cel.internal.CelGoSemantics;
import dev.tollgate.cel.internal.KubeLibrary;
import dev.tollgate.cel.library.AuthzLibrary;
import dev.tollgate.cel.library.KubeLibraries;

/**
 * The Kubernetes CEL environment: the options, extensions and libraries the API server enables for admission
 * (ValidatingAdmissionPolicy, matchConditions), the admission variables, and the runtime cost limits. Immutable and
 * thread-safe; build one at startup and share it.
 *
 * <pre>{@code
 * KubeCel cel = KubeCel.standard();
 * ExpressionSet set = cel.compileVariables(List.of(new NamedExpression("replicas", "object.spec.replicas")));
 * CompiledExpression rule = set.compile("variables.replicas <= 5", ResultType.BOOL);   // at startup
 * boolean ok = set.newEvaluation(AdmissionInput.of(request)).evaluateBool(rule);      // per request
 * }</pre>
 */
public final class KubeCel {

    /** The API server's limit on the cost of one expression evaluation (PerCallLimit). */
    public static final long DEFAULT_COST_LIMIT_PER_EXPRESSION = 1_000_000L;
    /** The API server's budget for all expressions of one policy on one request (RuntimeCELCostBudget). */
    public static final long DEFAULT_COST_BUDGET_PER_EVALUATION = 10_000_000L;

    /** The variables of admission expressions, as the API server declares them. */
    public static final List<String> ADMISSION_VARIABLES = List.of("object", "oldObject", "request", "params",
            "namespaceObject", "authorizer", "authorizer.requestResource", "variables");

    private static volatile KubeCel standard;

    final Cel cel;
    final long costLimitPerExpression;
    final long costBudgetPerEvaluation;
    final Authorizer authorizer;
    final boolean admissionScope;
    final List<String> customVariables;
    /** Variables declared beside the admission variables (dyn), bound through {@link AdmissionInput#extras()}. */
    final List<String> admissionExtras;
    final List<KubeLibrary> libraries;
    final Map<String, Object> constants;
    /** The static types of this environment's variables (the rest are dyn). */
    final DeclaredTypes baseTypes;
    private final ExpressionSet noVariables;

    private KubeCel(Builder b) {
        this.costLimitPerExpression = b.costLimitPerExpression;
        this.costBudgetPerEvaluation = b.costBudgetPerEvaluation;
        this.authorizer = b.authorizer;
        this.admissionScope = b.customVariables == null;
        this.customVariables = b.customVariables == null ? List.of() : List.copyOf(b.customVariables);
        this.admissionExtras = List.copyOf(b.admissionExtras);
        List<KubeLibrary> libs = new ArrayList<>(KubeLibraries.all());
        libs.add(new CelGoSemantics());
        this.libraries = List.copyOf(libs);
        Map<String, Object> consts = new LinkedHashMap<>();
        libraries.forEach(l -> consts.putAll(l.constants()));
        this.constants = Map.copyOf(consts);
        this.baseTypes = admissionScope ? DeclaredTypes.admission() : DeclaredTypes.none();
        this.cel = buildCel(baseTypes);
        this.noVariables = new ExpressionSet(this, List.of(), List.of());
    }

    /** The standard environment: admission variables, default cost limits, no authorizer configured. */
    public static KubeCel standard() {
        KubeCel s = standard;
        if (s == null) {
            synchronized (KubeCel.class) {
                s = standard;
                if (s == null) {
                    s = builder().build();
                    standard = s;
                }
            }
        }
        return s;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** This environment's settings (costs, authorizer) with further variables declared beside the admission ones. */
    public KubeCel withAdmissionExtras(String... names) {
        return builder().costLimitPerExpression(costLimitPerExpression).costBudgetPerEvaluation(costBudgetPerEvaluation)
                .authorizer(authorizer).admissionExtras(names).build();
    }

    /** CEL options as the API server sets them (cel-go: CrossTypeNumericComparisons, optional syntax). */
    static CelOptions options() {
        return CelOptions.current()
                // homogeneous list/map literals are checked after type-checking, as cel-go does (LiteralValidators)
                .enableHeterogeneousNumericComparisons(true)
                .enableOptionalSyntax(true)
                .enableTimestampEpoch(true)
                .populateMacroCalls(true)
                .maxExpressionCodePointSize(100_000)
                .build();
    }

    /** This environment with the given variables declared with static types instead of the base ones or dyn. */
    Cel buildCel(DeclaredTypes declared) {
        CelOptions opts = options();
        CelBuilder b = CelFactory.standardCelBuilder()
                .setOptions(opts)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                // all standard declarations; the standard runtime functions but the few CelGoSemantics replaces
                .setStandardEnvironmentEnabled(false)
                .setStandardDeclarations(dev.cel.checker.CelStandardDeclarations.newBuilder().build())
                .setStandardFunctions(CelGoSemantics.standardFunctions())
                .addCompilerLibraries(CelExtensions.optional(), CelExtensions.strings(), CelExtensions.sets(opts),
                        listsExtension(), CelExtensions.comprehensions())
                .addRuntimeLibraries(CelExtensions.optional(), CelExtensions.strings(), CelExtensions.sets(opts),
                        CelExtensions.lists(), CelExtensions.comprehensions())
                .addFunctionBindings(dev.tollgate.cel.internal.CelGoLists.bindings())
                .addFunctionBindings(ListIndex.binding());
        if (admissionScope) {
            for (String v : List.of("object", "oldObject", "request", "params", "namespaceObject", "variables")) {
                b.addVar(v, declared.variables().getOrDefault(v, SimpleType.DYN));
            }
            b.addVar("authorizer", AuthzLibrary.AUTHORIZER);
            b.addVar("authorizer.requestResource", AuthzLibrary.RESOURCE_CHECK);
            for (String v : admissionExtras) {
                b.addVar(v, SimpleType.DYN);
            }
        } else {
            for (String v : customVariables) {
                b.addVar(v, declared.variables().getOrDefault(v, SimpleType.DYN));
            }
        }
        if (!declared.isEmpty()) {
            b.setTypeProvider(declared.typeProvider());
        }
        for (KubeLibrary lib : libraries) {
            b.addFunctionDeclarations(lib.functions());
            b.addFunctionBindings(lib.bindings());
            b.addVarDeclarations(lib.variables());
            b.addMacros(lib.macros());
        }
        return b.build();
    }

    /**
     * cel-java's lists extension. Its sortBy macro builds [element, key] pairs, which homogeneous literals reject;
     * {@link dev.tollgate.cel.library.ListsLibrary} registers sortBy as cel-go expands it, replacing that macro.
     */
    private static dev.cel.compiler.CelCompilerLibrary listsExtension() {
        dev.cel.compiler.CelCompilerLibrary lists = CelExtensions.lists();
        return new dev.cel.compiler.CelCompilerLibrary() {
            @Override
            public void setCheckerOptions(dev.cel.checker.CelCheckerBuilder checker) {
                lists.setCheckerOptions(checker);
            }
        };
    }

    /** Compiles one expression that uses no composition variables; see {@link ExpressionSet#compile}. */
    public CompiledExpression compile(String expression, ResultType type) throws CelCompileException {
        return noVariables.compile(expression, type);
    }

    /**
     * Compiles composition variables, in order; each may use the ones before it as {@code variables.<name>}. Every
     * expression later compiled by the returned set may use all of them. Names must be unique CEL identifiers.
     */
    public ExpressionSet compileVariables(List<NamedExpression> variables) throws CelCompileException {
        return compileVariables(variables, DeclaredTypes.none());
    }

    /**
     * Like {@link #compileVariables(List)}, with static types for some admission variables (e.g. {@code object} and
     * {@code oldObject} from the matched kind's OpenAPI schema, {@link SchemaTypes}), as the API server's type
     * checking declares them (admission/plugin/policy/validating/typechecking.go). For checking: the values bound
     * when evaluating are not checked against these types.
     */
    public ExpressionSet compileVariables(List<NamedExpression> variables, DeclaredTypes types)
            throws CelCompileException {
        return compileVariables(variables, types, Set.of());
    }

    /**
     * Like {@link #compileVariables(List, DeclaredTypes)}, with some admission variables not declared at all: a
     * policy without {@code paramKind} has no {@code params} (k8s.io/apiserver pkg/admission/plugin/cel/compile.go,
     * createEnvForOpts declares it only with HasParams), so an expression of it that uses {@code params} is refused
     * with cel-go's {@code undeclared reference to 'params' (in container '')}.
     *
     * @param undeclared admission variables (of {@link #ADMISSION_VARIABLES}) the expressions may not use
     */
    public ExpressionSet compileVariables(List<NamedExpression> variables, DeclaredTypes types,
            Set<String> undeclared) throws CelCompileException {
        return compileVariables(variables, types, undeclared, false);
    }

    /**
     * Like {@link #compileVariables(List, DeclaredTypes, Set)}, but a variable whose expression does not compile
     * is kept as the API server's composition keeps it (k8s.io/apiserver pkg/admission/plugin/cel/composition.go
     * {@code CompileAndStoreVariable}): declared {@code dyn}, so the later variables and expressions still compile,
     * and evaluating it fails with {@code composited variable "<name>" fails to compile: <compile.go's error>}, so
     * only the expressions that read it fail. {@link ExpressionSet#variableCompileErrors()} lists the failures.
     * A name that is not a CEL identifier, or a repeated one, is still thrown.
     */
    public ExpressionSet compileVariablesKeepingErrors(List<NamedExpression> variables, DeclaredTypes types,
            Set<String> undeclared) throws CelCompileException {
        return compileVariables(variables, types, undeclared, true);
    }

    private ExpressionSet compileVariables(List<NamedExpression> variables, DeclaredTypes types,
            Set<String> undeclared, boolean keepErrors) throws CelCompileException {
        Objects.requireNonNull(variables, "variables");
        Objects.requireNonNull(types, "types");
        for (String u : undeclared) {
            if (!ADMISSION_VARIABLES.contains(u)) {
                throw new IllegalArgumentException(u + " is not an admission variable " + ADMISSION_VARIABLES);
            }
        }
        List<NamedExpression> done = new ArrayList<>();
        List<CompiledExpression> compiled = new ArrayList<>();
        Map<Integer, CelCompileException> failed = new java.util.HashMap<>();
        for (NamedExpression v : variables) {
            if (!v.name().matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                throw new CelCompileException(v.expression(), List.of(new CelCompileException.Issue(0, 0,
                        "variable name '" + v.name() + "' is not a valid CEL identifier")),
                        "variable name '" + v.name() + "' is not a valid CEL identifier");
            }
            if (done.stream().anyMatch(d -> d.name().equals(v.name()))) {
                throw new CelCompileException(v.expression(), List.of(new CelCompileException.Issue(0, 0,
                        "duplicate variable name '" + v.name() + "'")), "duplicate variable name '" + v.name() + "'");
            }
            ExpressionSet before = new ExpressionSet(this, List.copyOf(done),
                    java.util.Collections.unmodifiableList(new ArrayList<>(compiled)), Set.copyOf(undeclared), types,
                    failed);
            try {
                compiled.add(before.compile(v.expression(), ResultType.ANY));
            } catch (CelCompileException e) {
                if (!keepErrors) {
                    throw e;
                }
                failed.put(compiled.size(), e);
                compiled.add(null);
            }
            done.add(v);
        }
        return new ExpressionSet(this, done, java.util.Collections.unmodifiableList(compiled),
                Set.copyOf(undeclared), types, failed);
    }

    /** An evaluation with no composition variables, for expressions from {@link #compile}. */
    public Evaluation newEvaluation(AdmissionInput input) {
        return noVariables.newEvaluation(input);
    }

    /** An evaluation binding the custom variables of an environment built with {@link Builder#variables}. */
    public Evaluation newEvaluation(Map<String, ?> bindings) {
        return noVariables.newEvaluation(bindings);
    }

    public long costLimitPerExpression() {
        return costLimitPerExpression;
    }

    public long costBudgetPerEvaluation() {
        return costBudgetPerEvaluation;
    }

    /** Builds a {@link KubeCel}. */
    public static final class Builder {
        private long costLimitPerExpression = DEFAULT_COST_LIMIT_PER_EXPRESSION;
        private long costBudgetPerEvaluation = DEFAULT_COST_BUDGET_PER_EVALUATION;
        private Authorizer authorizer = Authorizer.NONE;
        private List<String> customVariables;
        private List<String> admissionExtras = List.of();

        private Builder() {
        }

        /**
         * Declares further variables (dyn) beside the admission variables, which the API server does not have: an
         * embedding's own inputs, such as Gatekeeper's {@code inventory}; bound per evaluation with {@link
         * AdmissionInput#withExtra} (null when not bound).
         */
        public Builder admissionExtras(String... names) {
            for (String n : names) {
                if (ADMISSION_VARIABLES.contains(n)) {
                    throw new IllegalArgumentException(n + " is an admission variable already");
                }
            }
            this.admissionExtras = List.of(names);
            return this;
        }

        /** The most one expression evaluation may cost; beyond it the evaluation fails (never hangs). */
        public Builder costLimitPerExpression(long limit) {
            if (limit <= 0) {
                throw new IllegalArgumentException("cost limit must be positive: " + limit);
            }
            this.costLimitPerExpression = limit;
            return this;
        }

        /** The most all expressions of one {@link Evaluation} (one policy, one request) may cost together. */
        public Builder costBudgetPerEvaluation(long budget) {
            if (budget <= 0) {
                throw new IllegalArgumentException("cost budget must be positive: " + budget);
            }
            this.costBudgetPerEvaluation = budget;
            return this;
        }

        /**
         * How {@code authorizer} checks are answered; default {@link Authorizer#NONE} (checks fail, the error advises
         * this method). {@link Authorizer#none(String)} fails them too, with the embedding's own advice.
         */
        public Builder authorizer(Authorizer authorizer) {
            this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
            return this;
        }

        /**
         * Replaces the admission variables with these names, each of type dyn (e.g. {@code self} for CRD-style
         * rules, or a tool's own inputs). Evaluate with {@link KubeCel#newEvaluation(Map)}.
         */
        public Builder variables(String... names) {
            this.customVariables = List.of(names);
            return this;
        }

        public KubeCel build() {
            return new KubeCel(this);
        }
    }
}
