package dev.tollgate.admission.match;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.tollgate.admission.GroupVersionResource;
import dev.tollgate.admission.Operation;

/**
 * Rule matching as the Kubernetes documentation defines it ("Matching requests: rules"). Each row: the rule's
 * operations, groups, versions, resources and scope (lists separated by spaces), then the request's operation,
 * group/version/resource, subresource and namespace, and whether it matches. Note {@code pods/*}: the API
 * server's matcher lets a {@code *} subresource match "no subresource" too, so it covers pods themselves as well.
 */
class RuleTest {

    private static List<String> list(String s) {
        return s == null || s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }

    @ParameterizedTest(name = "[{0}|{1}|{2}|{3}|{4}] vs {5} {6}/{7}/{8} sub={9} ns={10} -> {11}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            CREATE        | ''    | v1  | pods        | *          | CREATE  | ''   | v1      | pods        | -                   | default | true
            CREATE        | ''    | v1  | pods        | *          | UPDATE  | ''   | v1      | pods        | -                   | default | false
            *             | ''    | v1  | pods        | *          | CONNECT | ''   | v1      | pods        | exec                | default | false
            *             | ''    | v1  | pods/exec   | *          | CONNECT | ''   | v1      | pods        | exec                | default | true
            CREATE UPDATE | apps  | v1  | deployments | *          | UPDATE  | apps | v1      | deployments | -                   | default | true
            CREATE        | apps  | v1  | deployments | *          | CREATE  | apps | v1beta1 | deployments | -                   | default | false
            CREATE        | apps  | *   | deployments | *          | CREATE  | apps | v1beta1 | deployments | -                   | default | true
            CREATE        | *     | *   | *           | *          | CREATE  | apps | v1      | deployments | -                   | default | true
            CREATE        | *     | *   | *           | *          | CREATE  | apps | v1      | deployments | scale               | default | false
            UPDATE        | *     | *   | */*         | *          | UPDATE  | apps | v1      | deployments | scale               | default | true
            UPDATE        | *     | *   | */*         | *          | UPDATE  | apps | v1      | deployments | -                   | default | true
            UPDATE        | ''    | v1  | pods/*      | *          | UPDATE  | ''   | v1      | pods        | status              | default | true
            UPDATE        | ''    | v1  | pods/*      | *          | UPDATE  | ''   | v1      | pods        | -                   | default | true
            UPDATE        | ''    | v1  | pods/*      | *          | UPDATE  | ''   | v1      | services    | -                   | default | false
            UPDATE        | *     | *   | */status    | *          | UPDATE  | apps | v1      | deployments | status              | default | true
            UPDATE        | *     | *   | */status    | *          | UPDATE  | apps | v1      | deployments | scale               | default | false
            UPDATE        | *     | *   | */status    | *          | UPDATE  | apps | v1      | deployments | -                   | default | false
            UPDATE        | ''    | v1  | pods pods/ephemeralcontainers | * | UPDATE | '' | v1  | pods        | ephemeralcontainers | default | true
            CREATE        | ''    | v1  | *           | Namespaced | CREATE  | ''   | v1      | configmaps  | -                   | default | true
            CREATE        | ''    | v1  | *           | Namespaced | CREATE  | ''   | v1      | nodes       | -                   | ''      | false
            CREATE        | ''    | v1  | *           | Cluster    | CREATE  | ''   | v1      | nodes       | -                   | ''      | true
            CREATE        | ''    | v1  | *           | Cluster    | CREATE  | ''   | v1      | configmaps  | -                   | default | false
            CREATE        | ''    | v1  | namespaces  | Cluster    | CREATE  | ''   | v1      | namespaces  | -                   | team-a  | true
            CREATE        | ''    | v1  | namespaces  | Namespaced | CREATE  | ''   | v1      | namespaces  | -                   | team-a  | false
            DELETE        | ''    | v1  | *           | *          | DELETE  | ''   | v1      | secrets     | -                   | default | true
            """)
    void matches(String ops, String groups, String versions, String resources, String scope, String op,
            String group, String version, String resource, String sub, String namespace, boolean expected) {
        Rule rule = new Rule(list(ops), list(groups).isEmpty() ? List.of("") : list(groups), list(versions),
                list(resources), scope);
        assertEquals(expected, rule.matches(Operation.valueOf(op), GroupVersionResource.of(group, version, resource),
                sub == null ? "" : sub, namespace));
    }
}
