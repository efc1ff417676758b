package dev.tollgate.functions.crdconversion;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.testing.Manifests;

/** Database objects for tests, one per version, describing the same database. */
final class Databases {

    private Databases() {
    }

    static ObjectNode parse(String yaml) {
        return Manifests.parse(yaml);
    }

    static ObjectNode v1alpha1() {
        return parse("""
                apiVersion: data.tollgate.dev/v1alpha1
                kind: Database
                metadata:
                  name: orders
                  namespace: shop
                  uid: 6f1b2c3d-0000-4000-8000-000000000001
                  resourceVersion: "1207"
                  generation: 4
                  labels: {team: payments}
                spec:
                  engine: postgres:16.2
                  storageSize: 20Gi
                  replicas: 3
                  parameters: {max_connections: "200"}
                status:
                  phase: Ready
                """);
    }

    /** v1alpha1() in v1: renamed, split, and tlsMode disable (an old database had no TLS). */
    static ObjectNode v1() {
        return parse("""
                apiVersion: data.tollgate.dev/v1
                kind: Database
                metadata:
                  name: orders
                  namespace: shop
                  uid: 6f1b2c3d-0000-4000-8000-000000000001
                  resourceVersion: "1207"
                  generation: 4
                  labels: {team: payments}
                spec:
                  engine: {name: postgres, version: "16.2"}
                  storage: 20Gi
                  replicas: 3
                  tlsMode: disable
                  parameters: {max_connections: "200"}
                status:
                  phase: Ready
                """);
    }

    static ObjectNode v1beta1() {
        ObjectNode o = v1();
        o.put("apiVersion", "data.tollgate.dev/v1beta1");
        ((ObjectNode) o.get("spec")).remove("tlsMode");
        return o;
    }
}
