package dev.tollgate.knative.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.tollgate.knative.KnCommand;
import dev.tollgate.knative.ServiceManifest;

/**
 * The kn commands in knative/README.md are rendered from knative/*.yaml and build the same Service; those of the JVM
 * variant (knative/jvm/*.yaml, printed by the deployer's kn command) too.
 */
@Order(2)
class KnCommandsTest {

    static final String BEGIN = "<!-- BEGIN kn commands: generated from knative/*.yaml by shared/knative-manifests;"
            + " do not edit -->";
    static final String END = "<!-- END kn commands -->";

    static String renderedBlock(List<ServiceManifest> manifests) {
        StringBuilder sb = new StringBuilder(BEGIN).append('\n');
        for (ServiceManifest m : manifests) {
            // The mark says who runs the block (shared/deploy-walkthrough's ReadmeCommandBlocksTest wants one).
            sb.append("\n#### ").append(m.name()).append("\n\n<!-- not run: needs kn and a cluster with Knative ")
                    .append("(KnCommandsTest checks it against knative/").append(m.name()).append(".yaml) -->\n")
                    .append("```sh\n").append(KnCommand.of(m).shell())
                    .append("```\n");
        }
        return sb.append('\n').append(END).toString();
    }

    @Test
    void readmeShowsTheCommandForEveryManifest() throws IOException {
        Path readme = Project.knativeDir().resolve("README.md");
        String text = Files.readString(readme);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, () -> readme + " lacks the markers " + BEGIN + " ... " + END);
        List<ServiceManifest> manifests = ServiceManifest.readAll(Project.knativeDir());
        String expected = text.substring(0, begin) + renderedBlock(manifests) + text.substring(end + END.length());
        // A new function's command is added (as its manifest was created); a changed command fails as before.
        String block = text.substring(begin, end + END.length());
        List<ServiceManifest> listed = manifests.stream().filter(m -> block.contains("\n#### " + m.name() + "\n"))
                .toList();
        if (!expected.equals(text) && listed.size() < manifests.size() && block.equals(renderedBlock(listed))) {
            Project.write(readme, expected, "added the kn commands of " + manifests.stream()
                    .filter(m -> !listed.contains(m)).map(ServiceManifest::name).toList() + " to ");
            return;
        }
        Project.golden(readme, expected, "the kn commands rendered from knative/*.yaml");
    }

    /** The additions rule above: a block missing one function's command is exactly the others' rendering. */
    @Test
    void aBlockWithoutANewFunctionIsTheOthersRendering() {
        List<ServiceManifest> manifests = ServiceManifest.readAll(Project.knativeDir());
        assertTrue(manifests.size() > 1, "manifests to compare");
        List<ServiceManifest> withoutLast = manifests.subList(0, manifests.size() - 1);
        String block = renderedBlock(withoutLast);
        assertEquals(withoutLast, manifests.stream().filter(m -> block.contains("\n#### " + m.name() + "\n")).toList());
        assertNotEquals(renderedBlock(manifests), block);
    }

    @TestFactory
    Stream<DynamicTest> knBuildsTheSameServiceAsTheManifest() {
        return Project.committedManifests().stream().map(m -> dynamicTest(m.source(), () -> {
            var fromKn = KnInterpreter.normalize(KnInterpreter.apply(KnCommand.of(m).args()));
            var fromManifest = KnInterpreter.normalize(m.tree());
            assertEquals(fromManifest.toPrettyString(), fromKn.toPrettyString(),
                    "kn service create would build a different Service than " + m.source());
        }));
    }

    @Test
    void theComparisonNoticesAMissingFlag() {
        ServiceManifest m = ServiceManifest.readAll(Project.knativeDir()).get(0);
        List<String> args = new ArrayList<>(KnCommand.of(m).args());
        int timeout = args.indexOf("--timeout");
        assertTrue(timeout > 0, "the rendered command sets --timeout");
        args.remove(timeout + 1);
        args.remove(timeout);
        assertNotEquals(KnInterpreter.normalize(m.tree()), KnInterpreter.normalize(KnInterpreter.apply(args)));
    }
}
