package dev.tollgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * .ci/fetch-fixtures (the upstream conformance data for a machine without ../shared) cannot download here; what is
 * checked offline against the data the tests read (tollgate.fixtures.dir): its pinned list names every folder and
 * file there, and each pin's commit and repository are the ones the data itself says it was taken from.
 */
class FetchFixturesTest {

    record Pin(String dest, String repository, String commits) {
    }

    @Test
    void pinsCoverTheFixturesAndMatchTheirStatedSources() throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("tollgate.root.dir", "../.."));
        Path fixtures = Path.of(System.getProperty("tollgate.fixtures.dir", root.resolve("../shared/fixtures")
                .toString()));
        Skip.unless(Files.isDirectory(fixtures), "FetchFixturesTest", () -> fixtures + " is absent");
        List<Pin> pins = pins(root);

        // Every folder and file the tests read is pinned: the top-level folders, and what lies directly under
        // the folders pinned file by file.
        try (Stream<Path> top = Files.list(fixtures)) {
            for (Path entry : top.toList()) {
                String name = entry.getFileName().toString();
                assertTrue(pins.stream().anyMatch(p -> p.dest().equals(name) || p.dest().startsWith(name + "/")),
                        "no pin for " + name + " in .ci/fetch-fixtures");
                if (pins.stream().noneMatch(p -> p.dest().equals(name)) && Files.isDirectory(entry)) {
                    try (Stream<Path> inner = Files.list(entry)) {
                        for (Path child : inner.toList()) {
                            String dest = name + "/" + child.getFileName();
                            if (!dest.endsWith("README.md") && !dest.endsWith("SOURCE.md")) {
                                assertTrue(pins.stream().anyMatch(p -> p.dest().equals(dest)), "no pin for " + dest);
                            }
                        }
                    }
                }
            }
        }
        for (Pin pin : pins) {
            assertTrue(Files.exists(fixtures.resolve(pin.dest())), pin.dest() + " is pinned but not in " + fixtures);
            String top = pin.dest().split("/")[0];
            String provenance = provenance(fixtures.resolve(top));
            for (String commit : pin.commits().split(",")) {
                assertTrue(provenance.contains(commit), pin.dest() + ": commit " + commit + " is not the one "
                        + fixtures.resolve(top) + " names");
            }
            if (!pin.repository().startsWith("(")) {
                String repo = pin.repository().substring(pin.repository().indexOf('/') + 1);
                assertTrue(provenance.contains(repo), pin.dest() + ": " + pin.repository() + " is not named by "
                        + fixtures.resolve(top));
            }
        }
    }

    private static List<Pin> pins(Path root) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", root.resolve(".ci/fetch-fixtures").toString(), "--list")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<Pin> pins = new ArrayList<>();
        for (String line : out.strip().split("\n")) {
            String[] f = line.split("\\|");
            assertEquals(4, f.length, "dest|repository|commit|path: " + line);
            pins.add(new Pin(f[0], f[1], f[2]));
        }
        return pins;
    }

    /** What a fixture folder says about where it comes from: its README, SOURCE.md or JSON files' about fields. */
    private static String provenance(Path folder) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String name : List.of("README.md", "SOURCE.md", "index.json", "cel-cases-v2.json")) {
            Path f = folder.resolve(name);
            if (Files.isRegularFile(f)) {
                String s = Files.readString(f);
                int about = s.indexOf("\"about\"");
                text.append(about < 0 ? s : s.substring(about, Math.min(s.length(), about + 4000))).append('\n');
            }
        }
        return text.toString();
    }
}
