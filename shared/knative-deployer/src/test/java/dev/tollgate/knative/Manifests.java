package dev.tollgate.knative;

/** Manifests shaped like the ones quarkus-kubernetes renders for a function (see knative/*.yaml). */
final class Manifests {

    private Manifests() {
    }

    static String yaml(String name) {
        return """
                ---
                apiVersion: serving.knative.dev/v1
                kind: Service
                metadata:
                  annotations:
                    app.quarkus.io/quarkus-version: 3.34.1
                  labels:
                    app.kubernetes.io/managed-by: quarkus
                    app.kubernetes.io/name: %1$s
                  name: %1$s
                spec:
                  template:
                    metadata:
                      annotations:
                        autoscaling.knative.dev/scale-down-delay: 5m
                        autoscaling.knative.dev/metric: concurrency
                        autoscaling.knative.dev/target: "20"
                        autoscaling.knative.dev/max-scale: "10"
                        autoscaling.knative.dev/min-scale: "0"
                        app.quarkus.io/quarkus-version: 3.34.1
                      labels:
                        app.kubernetes.io/managed-by: quarkus
                        app.kubernetes.io/name: %1$s
                    spec:
                      containerConcurrency: 100
                      containers:
                        - args:
                            - -Xmx128m
                          env:
                            - name: TOLLGATE_AUTH_PATH_TOKEN_FILES
                              value: /var/run/tollgate/auth/path-tokens
                          image: ghcr.io/tollgate/%1$s:0.1.0-SNAPSHOT
                          imagePullPolicy: IfNotPresent
                          livenessProbe:
                            failureThreshold: 3
                            httpGet:
                              path: /q/health/live
                              port: null
                              scheme: HTTP
                            initialDelaySeconds: 0
                            periodSeconds: 10
                            successThreshold: 1
                            timeoutSeconds: 3
                          name: %1$s
                          ports:
                            - containerPort: 8080
                              name: http1
                              protocol: TCP
                          readinessProbe:
                            failureThreshold: 0
                            httpGet:
                              path: /q/health/ready
                              port: null
                              scheme: HTTP
                            initialDelaySeconds: 0
                            periodSeconds: 0
                            successThreshold: 1
                            timeoutSeconds: 0
                          resources:
                            limits:
                              memory: 192Mi
                            requests:
                              cpu: 250m
                              memory: 96Mi
                          securityContext:
                            allowPrivilegeEscalation: false
                            capabilities:
                              drop:
                                - ALL
                            runAsNonRoot: true
                            seccompProfile:
                              type: RuntimeDefault
                          volumeMounts:
                            - mountPath: /var/run/tollgate/auth
                              name: tollgate-auth
                              readOnly: true
                      timeoutSeconds: 10
                      volumes:
                        - name: tollgate-auth
                          secret:
                            defaultMode: 420
                            optional: false
                            secretName: tollgate-auth
                """.formatted(name);
    }

    static ServiceManifest manifest(String name) {
        return ServiceManifest.parse(yaml(name), name + ".yaml");
    }
}
