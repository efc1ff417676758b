package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.List;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.cel.Authorizer;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' authz library: {@code authorizer.group(g).resource(r).subresource(s).namespace(ns).name(n).check(verb)},
 * {@code authorizer.path(p).check(verb)}, {@code authorizer.serviceAccount(ns, name)}, {@code
 * authorizer.requestResource}, and on the decision {@code allowed()}, {@code reason()}, {@code errored()},
 * {@code error()}. Decisions come from the configured {@link Authorizer}.
 */
public final class AuthzLibrary implements KubeLibrary {

    public static final OpaqueType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
    public static final OpaqueType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
    public static final OpaqueType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
    public static final OpaqueType RESOURCE_CHECK = OpaqueType.create("kubernetes.authorization.ResourceCheck");
    public static final OpaqueType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

    /** The subject whose access is checked, and who answers. */
    record Subject(Authorizer authorizer, String user, List<String> groups) {
    }

    record PathCheck(Subject subject, String path) {
    }

    record GroupCheck(Subject subject, String group) {
    }

    record ResourceCheck(Subject subject, String group, String resource, String subresource, String namespace,
            String name) {
        ResourceCheck with(String subresource, String namespace, String name) {
            return new ResourceCheck(subject, group, resource, subresource, namespace, name);
        }
    }

    record Decision(Authorizer.Decision decision) {
    }

    /** The {@code authorizer} value for a request: checks run as the requesting user. */
    public static Object authorizerFor(Authorizer authorizer, AdmissionRequest r) {
        return new Subject(authorizer, r.userInfo().username(), r.userInfo().groups());
    }

    /** {@code authorizer.requestResource}: a resource check for the request's own resource. */
    public static Object requestResourceFor(Authorizer authorizer, AdmissionRequest r) {
        var res = r.requestResource() != null ? r.requestResource() : r.resource();
        return new ResourceCheck(new Subject(authorizer, r.userInfo().username(), r.userInfo().groups()),
                res.group(), res.resource(), r.requestSubResource(), r.namespace(), r.name());
    }

    @Override
    public List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("path",
                        newMemberOverload("authorizer_path", PATH_CHECK, AUTHORIZER, SimpleType.STRING)),
                newFunctionDeclaration("group",
                        newMemberOverload("authorizer_group", GROUP_CHECK, AUTHORIZER, SimpleType.STRING)),
                newFunctionDeclaration("serviceAccount", newMemberOverload("authorizer_serviceaccount", AUTHORIZER,
                        AUTHORIZER, SimpleType.STRING, SimpleType.STRING)),
                newFunctionDeclaration("resource",
                        newMemberOverload("groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK, SimpleType.STRING)),
                newFunctionDeclaration("subresource", newMemberOverload("resourcecheck_subresource", RESOURCE_CHECK,
                        RESOURCE_CHECK, SimpleType.STRING)),
                newFunctionDeclaration("namespace", newMemberOverload("resourcecheck_namespace", RESOURCE_CHECK,
                        RESOURCE_CHECK, SimpleType.STRING)),
                newFunctionDeclaration("name",
                        newMemberOverload("resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING)),
                newFunctionDeclaration("check",
                        newMemberOverload("pathcheck_check", DECISION, PATH_CHECK, SimpleType.STRING),
                        newMemberOverload("resourcecheck_check", DECISION, RESOURCE_CHECK, SimpleType.STRING)),
                newFunctionDeclaration("allowed", newMemberOverload("decision_allowed", SimpleType.BOOL, DECISION)),
                newFunctionDeclaration("reason", newMemberOverload("decision_reason", SimpleType.STRING, DECISION)),
                newFunctionDeclaration("errored", newMemberOverload("decision_errored", SimpleType.BOOL, DECISION)),
                newFunctionDeclaration("error", newMemberOverload("decision_error", SimpleType.STRING, DECISION)));
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("authorizer_path", Subject.class, String.class, PathCheck::new),
                CelFunctionBinding.from("authorizer_group", Subject.class, String.class, GroupCheck::new),
                CelFunctionBinding.from("authorizer_serviceaccount", List.of(Subject.class, String.class, String.class),
                        args -> {
                            Subject s = (Subject) args[0];
                            String ns = (String) args[1];
                            String name = (String) args[2];
                            return new Subject(s.authorizer(), "system:serviceaccount:" + ns + ":" + name,
                                    List.of("system:serviceaccounts", "system:serviceaccounts:" + ns,
                                            "system:authenticated"));
                        }),
                CelFunctionBinding.from("groupcheck_resource", GroupCheck.class, String.class,
                        (g, r) -> new ResourceCheck(g.subject(), g.group(), r, "", "", "")),
                CelFunctionBinding.from("resourcecheck_subresource", ResourceCheck.class, String.class,
                        (c, v) -> c.with(v, c.namespace(), c.name())),
                CelFunctionBinding.from("resourcecheck_namespace", ResourceCheck.class, String.class,
                        (c, v) -> c.with(c.subresource(), v, c.name())),
                CelFunctionBinding.from("resourcecheck_name", ResourceCheck.class, String.class,
                        (c, v) -> c.with(c.subresource(), c.namespace(), v)),
                CelFunctionBinding.from("pathcheck_check", PathCheck.class, String.class,
                        (c, verb) -> decide(c.subject(), new Authorizer.Attributes(c.subject().user(),
                                c.subject().groups(), verb, null, null, null, null, null, c.path()))),
                CelFunctionBinding.from("resourcecheck_check", ResourceCheck.class, String.class,
                        (c, verb) -> decide(c.subject(), new Authorizer.Attributes(c.subject().user(),
                                c.subject().groups(), verb, c.group(), c.resource(), c.subresource(), c.namespace(),
                                c.name(), null))),
                CelFunctionBinding.from("decision_allowed", Decision.class, d -> d.decision().allowed()),
                CelFunctionBinding.from("decision_reason", Decision.class, d -> d.decision().reason()),
                CelFunctionBinding.from("decision_errored", Decision.class, d -> d.decision().error() != null),
                CelFunctionBinding.from("decision_error", Decision.class,
                        d -> d.decision().error() == null ? "" : d.decision().error()));
    }

    private static Decision decide(Subject subject, Authorizer.Attributes attributes) {
        Authorizer.Decision d = subject.authorizer().authorize(attributes);
        if (d == null) {
            throw new IllegalStateException("the authorizer returned no decision for " + attributes);
        }
        return new Decision(d);
    }
}
