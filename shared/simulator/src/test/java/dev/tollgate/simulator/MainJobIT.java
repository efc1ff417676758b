package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The packaged CLI, run as the README says, with nothing set up: it serves the bundled functions in-process and
 * reviews the shipped examples.
 */
class MainJobIT {

    @TempDir
    Path dir;

    private PackagedCli.Result tollgate(String... args) throws Exception {
        return PackagedCli.run(dir, Duration.ofSeconds(180), List.of(args));
    }

    @Test
    void reviewsTheExamplesWithTheInProcessBundle() throws Exception {
        PackagedCli.Result r = tollgate("review", "-o", "json", "shared/simulator/examples");
        assertEquals(1, r.exit(), r.stderr());
        JsonNode report = new ObjectMapper().readTree(r.stdout());
        assertEquals(report.path("manifests").size(), report.path("summary").path("manifests").asInt());
        boolean sawDenial = false;
        for (JsonNode m : report.path("manifests")) {
            if (m.path("name").asText().equals("checkout") && m.path("kind").asText().equals("Deployment")) {
                sawDenial = true;
                assertEquals("admission webhook \"require-labels.tollgate.dev\" denied the request: Deployment "
                        + "\"checkout\" is missing required label team", m.path("message").asText());
            }
            if (m.path("name").asText().equals("web")) {
                assertTrue(m.path("allowed").asBoolean(), m.toString());
                assertEquals("Always", m.path("object").path("spec").path("containers").path(0)
                        .path("imagePullPolicy").asText());
                // cel-mutate's sidecar made always-pull-images run again (round 1) for the new container.
                boolean reinvoked = false;
                for (JsonNode c : m.path("webhooks")) {
                    reinvoked |= c.path("webhook").asText().equals("always-pull-images.tollgate.dev")
                            && c.path("round").asInt() == 1 && c.path("result").asText().equals("patched");
                }
                assertTrue(reinvoked, m.toString());
                assertEquals("Always", m.path("object").path("spec").path("initContainers").path(0)
                        .path("imagePullPolicy").asText(), m.toString());
            }
        }
        assertTrue(sawDenial, r.stdout());
    }

    @Test
    void badInputExitsWithTwoAndSaysWhy() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "kind: Pod\nmetadata: {}\n");
        PackagedCli.Result r = tollgate("review", broken.toString());
        assertEquals(2, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stderr().contains("apiVersion: required"), r.stderr());
        assertTrue(r.stderr().contains("metadata.name or metadata.generateName: required"), r.stderr());
    }
}
