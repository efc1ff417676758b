package dev.tollgate.testing;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;

/**
 * Sends reviews to a running function over HTTP with rest-assured (in a {@code @QuarkusTest}, RestAssured already
 * points at the test port). Every response is checked against the API server's rules.
 */
public final class AdmissionHttp {

    private final String path;
    private final boolean mutating;

    private AdmissionHttp(String path, boolean mutating) {
        this.path = path;
        this.mutating = mutating;
    }

    /** A validating function served at {@code path}. */
    public static AdmissionHttp validating(String path) {
        return new AdmissionHttp(path, false);
    }

    /** A mutating function served at {@code path}. */
    public static AdmissionHttp mutating(String path) {
        return new AdmissionHttp(path, true);
    }

    public ReviewResult review(ReviewBuilder builder) {
        var json = builder.build();
        Response r = given().contentType("application/json").body(Manifests.toJson(json)).post(path);
        return new ReviewResult(builder, json, r.statusCode(), r.asByteArray(), mutating, this::review);
    }
}
