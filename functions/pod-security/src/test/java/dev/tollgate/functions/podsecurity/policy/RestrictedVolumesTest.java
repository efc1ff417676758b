package dev.tollgate.functions.podsecurity.policy;

import static dev.tollgate.functions.podsecurity.policy.CheckCase.allowed;
import static dev.tollgate.functions.podsecurity.policy.CheckCase.forbidden;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RestrictedVolumesTest {

    static List<CheckCase> cases() {
        return List.of(
                allowed("every allowed type, and a volume without source (an emptyDir)", 0, """
                        {spec: {volumes: [{name: v0}, {name: v1, emptyDir: {}}, {name: v2, secret: {secretName: s}},
                          {name: v3, persistentVolumeClaim: {claimName: c}}, {name: v4, downwardAPI: {items: []}},
                          {name: v5, configMap: {name: c}}, {name: v6, projected: {sources: []}},
                          {name: v7, csi: {driver: d}}, {name: v8, ephemeral: {volumeClaimTemplate: {spec: {}}}},
                          {name: v9, image: {reference: 'registry.k8s.io/pause'}}]}}"""),
                forbidden("hostPath", 0, "{spec: {volumes: [{name: h, hostPath: {path: /dev/null}}]}}",
                        "restricted volume types", "volume \"h\" uses restricted volume type \"hostPath\""),
                forbidden("several, types sorted", 37, """
                        {spec: {volumes: [{name: a, nfs: {server: s, path: /p}}, {name: b, emptyDir: {}},
                          {name: c, gcePersistentDisk: {pdName: p}}, {name: d, nfs: {server: s, path: /q}}]}}""",
                        "restricted volume types", "volumes \"a\", \"c\", \"d\" use restricted volume types "
                                + "\"gcePersistentDisk\", \"nfs\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(CheckCase c) {
        c.assertOn(RestrictedVolumes.CHECK);
    }

    @Test
    void replacesHostPathVolumes() {
        assertEquals(Set.of("hostPathVolumes"), RestrictedVolumes.CHECK.revisionAt(0).overrides());
    }
}
