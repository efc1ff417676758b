package dev.tollgate.functions.celpolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.gatekeeper.gator.GatorSuite;

/**
 * The gatekeeper-library of ../shared/fixtures (read in place, never copied) as one cel-policy configuration: every
 * template, and each sample constraint once (the first of a kind and name, as a cluster holds one), plus the object
 * of every suite case.
 */
final class GatekeeperLibraryFixture {

    private GatekeeperLibraryFixture() {
    }

    /** The library folder, or null when the fixtures are absent. */
    static Path library() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        Path root = dir == null ? null : Path.of(dir, "gatekeeper-library", "library").toAbsolutePath().normalize();
        return root != null && Files.isDirectory(root) ? root : null;
    }

    static String missing() {
        String dir = System.getProperty("tollgate.fixtures.dir");
        return dir == null ? "tollgate.fixtures.dir is not set"
                : "fixture " + Path.of(dir, "gatekeeper-library", "library").toAbsolutePath().normalize()
                        + " is absent";
    }

    static List<GatorSuite> suites(Path library) {
        try (Stream<Path> files = Files.walk(library)) {
            return files.filter(p -> p.getFileName().toString().equals("suite.yaml")).sorted()
                    .map(GatorSuite::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files of the configuration: every template and the first constraint of each kind and name. */
    static List<Path> configuration(Path library) {
        List<Path> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (GatorSuite s : suites(library)) {
            Path dir = s.file().toAbsolutePath().getParent();
            for (GatorSuite.Test t : s.tests()) {
                Path template = dir.resolve(t.template()).normalize();
                if (seen.add(template.toString())) {
                    out.add(template);
                }
                Path constraint = dir.resolve(t.constraint()).normalize();
                ConfigFiles.Document c = ConfigFiles.read(List.of(constraint)).get(0);
                if (!t.invalid() && seen.add(c.kind() + "/" + c.name())) {
                    out.add(constraint);
                }
            }
        }
        return out;
    }

    /** Every distinct case object (objects and AdmissionReviews), in suite order. */
    static List<Path> caseObjects(Path library) {
        Set<Path> out = new java.util.LinkedHashSet<>();
        for (GatorSuite s : suites(library)) {
            Path dir = s.file().toAbsolutePath().getParent();
            s.tests().forEach(t -> t.cases().forEach(c -> out.add(dir.resolve(c.object()).normalize())));
        }
        return List.copyOf(out);
    }
}
