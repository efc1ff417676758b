package dev.tollgate.terraform;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.tollgate.testing.TerraformTree;

/**
 * Runs the terraform CLI for the tests: the binary from PATH (or {@code -Dtollgate.terraform=...}), a CLI
 * configuration of our own (a filesystem mirror of the providers when one exists, normal registry installation
 * otherwise), and a scratch copy of the repository's terraform/ tree so that init never writes into the checkout.
 */
final class Terraform {

    /** Where a machine may keep pre-downloaded providers (this project's machines do: hashicorp/aws). */
    static final Path MIRROR = Path.of(System.getProperty("tollgate.terraform.mirror", "/opt/tf-plugins"));

    private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    private static final Pattern PROVIDER_SOURCE = Pattern.compile(
            "source\\s*=\\s*\"(?:registry\\.terraform\\.io/)?([a-z0-9-]+/[a-z0-9-]+)\"");
    private static Path workTree;
    private static Path cliConfig;

    record Result(int exit, String stdout, String stderr) {
        boolean ok() {
            return exit == 0;
        }

        String output() {
            return stdout + (stderr.isBlank() ? "" : "\n" + stderr);
        }

        /** The output with terraform's line wrapping and box characters removed, for matching messages. */
        String flat() {
            return output().replace('│', ' ').replace('╷', ' ').replace('╵', ' ').replaceAll("\\s+", " ");
        }
    }

    private Terraform() {
    }

    static Path binary() {
        String configured = System.getProperty("tollgate.terraform");
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            if (!Files.isExecutable(p)) {
                fail("-Dtollgate.terraform=" + configured + " is not an executable file");
            }
            return p;
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            for (String name : List.of("terraform", "terraform.exe")) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return fail("terraform is not on PATH. The Terraform checks (fmt, validate, terraform test, rendered "
                + "configurations) need Terraform >= 1.9: install it (https://developer.hashicorp.com/terraform/install) "
                + "or point -Dtollgate.terraform at the binary.");
    }

    /** Providers in the filesystem mirror, as {@code namespace/name}; empty when there is no mirror. */
    static Set<String> mirroredProviders() {
        Set<String> out = new TreeSet<>();
        Path registry = MIRROR.resolve("registry.terraform.io");
        if (!Files.isDirectory(registry)) {
            return out;
        }
        try (Stream<Path> namespaces = Files.list(registry)) {
            for (Path ns : namespaces.filter(Files::isDirectory).toList()) {
                try (Stream<Path> names = Files.list(ns)) {
                    names.filter(Files::isDirectory).forEach(n -> out.add(ns.getFileName() + "/" + n.getFileName()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + MIRROR, e);
        }
        return out;
    }

    /** With a mirror, only mirrored providers can be installed (no other network here); without one, any. */
    static boolean providerAvailable(String provider) {
        return !Files.isDirectory(MIRROR) || mirroredProviders().contains(provider);
    }

    /** Providers a module (or example) requires, read from its *.tf files. */
    static Set<String> requiredProviders(Path moduleDir) {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(moduleDir)) {
            for (Path tf : files.filter(f -> f.toString().endsWith(".tf")).toList()) {
                Matcher m = PROVIDER_SOURCE.matcher(Files.readString(tf));
                while (m.find()) {
                    out.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + moduleDir, e);
        }
        return out;
    }

    /** A CLI configuration file of our own; the user's ~/.terraformrc and TF_CLI_CONFIG_FILE are not used. */
    static synchronized Path cliConfig() {
        if (cliConfig != null) {
            return cliConfig;
        }
        StringBuilder rc = new StringBuilder("provider_installation {\n");
        Set<String> mirrored = mirroredProviders();
        if (!mirrored.isEmpty()) {
            String list = String.join(", ", mirrored.stream().map(p -> "\"registry.terraform.io/" + p + "\"").toList());
            rc.append("  filesystem_mirror {\n    path    = \"").append(MIRROR.toString().replace("\\", "/"))
                    .append("\"\n    include = [").append(list).append("]\n  }\n")
                    .append("  direct {\n    exclude = [").append(list).append("]\n  }\n");
        } else {
            rc.append("  direct {}\n");
        }
        rc.append("}\n");
        try {
            Path file = target().resolve("terraform-cli.tfrc");
            Files.writeString(file, rc.toString());
            cliConfig = file;
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh copy of the repository's terraform/ tree (once per test run), without local state or init output. */
    static synchronized Path workTree() {
        if (workTree != null) {
            return workTree;
        }
        Path source = ProjectRoot.get().resolve("terraform");
        Path dest = target().resolve("terraform-work").resolve("terraform");
        try {
            deleteTree(dest.getParent());
            TerraformTree.copy(source, dest);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + source + " to " + dest, e);
        }
        workTree = dest;
        return dest;
    }

    static Result run(Path dir, String... args) {
        return run(dir, null, args);
    }

    /** Runs terraform in {@code dir}; {@code stdin} (may be null) is fed to its standard input. */
    static Result run(Path dir, Path stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("TF_"));
        env.put("TF_CLI_CONFIG_FILE", cliConfig().toString());
        env.put("TF_IN_AUTOMATION", "1");
        env.put("TF_INPUT", "0");
        env.put("CHECKPOINT_DISABLE", "1"); // no version check against the network
        try {
            Path out = Files.createTempFile(target(), "tf-out", ".txt");
            Path err = Files.createTempFile(target(), "tf-err", ".txt");
            pb.redirectOutput(out.toFile()).redirectError(err.toFile());
            if (stdin != null) {
                pb.redirectInput(stdin.toFile());
            }
            Process p = pb.start();
            if (!p.waitFor(DEFAULT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("terraform " + String.join(" ", args) + " in " + dir + " did not finish within " + DEFAULT_TIMEOUT);
            }
            Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run terraform in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Runs terraform and fails the test, with terraform's output, when it exits non-zero. */
    static Result runOk(Path dir, String... args) {
        Result r = run(dir, args);
        if (!r.ok()) {
            fail("terraform " + String.join(" ", args) + " failed in " + dir + " (exit " + r.exit() + "):\n"
                    + r.output());
        }
        return r;
    }

    static Path target() {
        Path target = Path.of(System.getProperty("basedir", ".")).resolve("target").toAbsolutePath();
        try {
            return Files.createDirectories(target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An empty folder {@code target/terraform-work/<name>} for a test's own root module, made after the scratch copy
     * of terraform/ (which replaces terraform-work).
     */
    static Path scratchDir(String name) throws IOException {
        workTree();
        Path dir = target().resolve("terraform-work").resolve(name);
        deleteTree(dir);
        return Files.createDirectories(dir);
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Sub-folders of terraform/&lt;group&gt; (modules or examples) in the work tree, sorted. */
    static List<Path> folders(String group) {
        try (Stream<Path> dirs = Files.list(workTree().resolve(group))) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
