package dev.tollgate.testing;

import java.util.Map;
import java.util.logging.Level;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A function serving three caller clusters, each under another enforcement mode: {@value #WARN} in warn and
 * {@value #ENFORCE} in enforce ({@code tollgate.enforcement.cluster-modes}), {@value #AUDIT} in the function's own
 * mode, audit ({@code tollgate.enforcement.mode}). Each cluster calls with its own path token, so one running function
 * answers the same review in all three modes. Use with {@code @TestProfile(EnforcementModesProfile.class)}.
 */
public class EnforcementModesProfile implements QuarkusTestProfile {

    public static final String WARN = "east";
    public static final String AUDIT = "west";
    public static final String ENFORCE = "north";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "tollgate.auth.clusters." + WARN + ".path-token.values", token(WARN),
                "tollgate.auth.clusters." + AUDIT + ".path-token.values", token(AUDIT),
                "tollgate.auth.clusters." + ENFORCE + ".path-token.values", token(ENFORCE),
                "tollgate.enforcement.mode", "audit",
                "tollgate.enforcement.cluster-modes", WARN + "=warn," + ENFORCE + "=enforce");
    }

    /** The path token that makes a call {@code cluster}'s. */
    public static String token(String cluster) {
        return cluster + "-enforcement-mode-token";
    }

    /** A validating function at {@code path}, called by {@code cluster}. */
    public static AdmissionHttp validating(String cluster, String path) {
        return AdmissionHttp.validating("/" + token(cluster) + path);
    }

    /** A mutating function at {@code path}, called by {@code cluster}. */
    public static AdmissionHttp mutating(String cluster, String path) {
        return AdmissionHttp.mutating("/" + token(cluster) + path);
    }

    /** The decision-log line of the review {@code uid}, from a capture of the decision log's category. */
    public static JsonNode decision(CapturedLog decisions, String uid) {
        return Manifests.parse(CapturedLog.message(decisions.await(Level.INFO, "\"uid\":\"" + uid + "\"")));
    }
}
