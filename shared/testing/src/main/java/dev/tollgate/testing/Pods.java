package dev.tollgate.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small pods for tests. Each call returns a fresh object the test may change. */
public final class Pods {

    private Pods() {
    }

    /** A pod named {@code name} in namespace {@code default} with one container {@code app} running nginx. */
    public static ObjectNode minimal(String name) {
        return Manifests.parse("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                spec:
                  containers:
                  - name: app
                    image: nginx:1.27
                """.formatted(name));
    }

    /** Adds labels to an object's metadata and returns it. */
    public static ObjectNode withLabels(ObjectNode object, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in key/value pairs");
        }
        ObjectNode labels = object.withObject("/metadata/labels");
        for (int i = 0; i < keyValues.length; i += 2) {
            labels.put(keyValues[i], keyValues[i + 1]);
        }
        return object;
    }

    /** Appends a container to {@code spec.<listField>} (containers, initContainers, ephemeralContainers). */
    public static ObjectNode withContainer(ObjectNode pod, String listField, String name, String image) {
        ArrayNode list = pod.withObject("/spec").withArray(listField);
        ObjectNode c = list.addObject();
        c.put("name", name);
        c.put("image", image);
        return pod;
    }
}
