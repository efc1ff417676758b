package dev.tollgate.functions.celpolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.AdmissionCodec;
import dev.tollgate.admission.Verdict;
import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.testing.AdmissionHttp;
import dev.tollgate.testing.PathTokenResource;
import dev.tollgate.testing.ReviewBuilder;
import dev.tollgate.testing.ReviewResult;
import dev.tollgate.testing.Skip;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * The packaged function (fast-jar, or native with -Dnative) serving the whole gatekeeper-library, its templates and
 * constraints unchanged: every suite case's object, sent over HTTP as an AdmissionReview, gets the answer the same
 * configuration gives in this process (the library's suites prove that answer right: shared/gatekeeper
 * GatekeeperLibrarySuitesTest), in Gatekeeper's words ({@code [<constraint>] <message>}).
 */
@QuarkusIntegrationTest
@WithTestResource(GatekeeperLibraryResource.class)
class GatekeeperLibraryIT {

    private static final AdmissionHttp FUNCTION = AdmissionHttp.validating(PathTokenResource.withToken("/cel-policy"));

    @Test
    void everyCaseAnswersOverHttpAsInProcess() throws Exception {
        Path library = GatekeeperLibraryFixture.library();
        Skip.unless(library != null, "GatekeeperLibraryIT", GatekeeperLibraryFixture::missing);
        List<String> config = new ArrayList<>();
        GatekeeperLibraryFixture.configuration(library).forEach(p -> config.add(p.toString()));
        CelPolicy expected = new CelPolicy(CelPolicy.load(config, "none", key -> Optional.empty()));
        AdmissionCodec codec = new AdmissionCodec();
        List<String> differences = new ArrayList<>();
        int denied = 0;
        List<Path> objects = GatekeeperLibraryFixture.caseObjects(library);
        for (Path object : objects) {
            ReviewBuilder review = review(ConfigFiles.read(List.of(object)).get(0).object());
            ReviewResult answer = FUNCTION.review(review);
            Verdict want = expected.validate(codec.decode(review.bytes()).request());
            String got = answer.allowed() + " " + answer.message() + " " + answer.warnings();
            String expect = want.allowed() + " " + (want.allowed() ? "" : want.message()) + " " + want.warnings();
            if (!got.equals(expect)) {
                differences.add(object + ": over HTTP " + got + ", in process " + expect);
            }
            denied += answer.allowed() ? 0 : 1;
        }
        assertEquals(List.of(), differences);
        // Not vacuous: the library's disallowed samples are denied, in Gatekeeper's words.
        assertTrue(denied > objects.size() / 3, denied + " of " + objects.size() + " denied");
        ReviewResult privileged = FUNCTION.review(review(ConfigFiles.read(List.of(library.resolve(
                "pod-security-policy/privileged-containers/samples/psp-privileged-container/example_disallowed.yaml")))
                .get(0).object()));
        privileged.assertDenied().withCode(403).withMessageContaining("[psp-privileged-container] Privileged container"
                + " is not allowed: nginx");
    }

    /** A case object as the API server would send it: an AdmissionReview's request, or a CREATE of the object. */
    static ReviewBuilder review(ObjectNode object) {
        if (!"AdmissionReview".equals(object.path("kind").asText())) {
            return ReviewBuilder.create(object);
        }
        JsonNode r = object.path("request");
        return switch (r.path("operation").asText("CREATE")) {
            case "UPDATE" -> ReviewBuilder.update(r.get("object"), r.has("oldObject") ? r.get("oldObject")
                    : r.get("object"));
            case "DELETE" -> ReviewBuilder.delete(r.has("oldObject") ? r.get("oldObject") : r.get("object"));
            default -> ReviewBuilder.create(r.get("object"));
        };
    }
}
