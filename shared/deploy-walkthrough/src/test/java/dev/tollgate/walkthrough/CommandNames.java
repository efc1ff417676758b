package dev.tollgate.walkthrough;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the names a README command uses against the repository, so a renamed module, test, profile, script or file
 * breaks the build instead of the reader: Maven's {@code -pl} modules, {@code -Dtest} / {@code -Dit.test} classes
 * (in those modules' test sources), {@code -P} profiles (in some pom), and the repository paths a command names (a
 * script it runs, a file it reads). Commands run from the repository root; {@code cd DIR} in a block moves the rest
 * of the block there. Paths under {@code target/}, with a placeholder ({@code <name>}, {@code $VAR}) or written by
 * the command ({@code > file}, {@code -o file}) are not checked; neither are {@code ../shared} paths when that
 * folder is absent (a plain clone).
 */
final class CommandNames {

    private static final Pattern PATH_TOKEN = Pattern.compile("^(\\./|\\.\\./)?[A-Za-z0-9_.@-]+(/[A-Za-z0-9_.*@-]*)+$");
    private static final Set<String> MAVEN = Set.of("./mvnw", "../mvnw", "../../mvnw", "mvn");
    private static final Set<String> OUTPUT_FLAGS = Set.of(">", ">>", "-o", "--output", "--out", "tee", "2>");
    /** The function the READMEs' archetype step generates (src-templates/README.md): later steps name its files. */
    static final String ARCHETYPE_EXAMPLE = "functions/deny-latest-tag";
    private static final Set<String> SKIPPED_DIRS = Set.of("target", ".git", ".terraform", "node_modules");

    private final Path root;
    private final List<Path> poms;
    private final Set<String> profiles = new TreeSet<>();

    CommandNames(Path root) {
        this.root = root;
        try (Stream<Path> files = Files.walk(root)) {
            this.poms = files.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> !skipped(root.relativize(p))).toList();
            for (Path pom : poms) {
                Matcher m = Pattern.compile("<profile>\\s*<id>([^<]+)</id>").matcher(Files.readString(pom));
                while (m.find()) {
                    profiles.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the poms under " + root, e);
        }
    }

    private static boolean skipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED_DIRS.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    /** The problems of one block's commands, each as {@code where:line: what}. */
    List<String> check(CommandBlocks.Block block) {
        List<String> problems = new ArrayList<>();
        Path cwd = root;
        for (String command : block.commands()) {
            Path before = cwd;
            boolean subshell = command.startsWith("(");
            for (String part : command.split("\\s*(&&|\\|\\||;|\\|)\\s*")) {
                List<String> words = words(part.replaceFirst("^\\(", "").replaceFirst("\\)\\s*&?$", ""));
                if (!words.isEmpty() && words.get(0).equals("$")) {
                    words = words.subList(1, words.size()); // a console block's prompt
                }
                if (words.isEmpty()) {
                    continue;
                }
                String at = block.where() + ":" + block.line() + ": ";
                if (words.get(0).equals("cd") && words.size() > 1) {
                    Path next = cwd.resolve(words.get(1)).normalize();
                    if (placeholder(words.get(1)) || !next.startsWith(root)) {
                        // The rest runs somewhere the README leaves to the reader (or outside the repository).
                        if (subshell) {
                            break;
                        }
                        return problems;
                    }
                    if (!Files.isDirectory(next) && !generated(next)) {
                        problems.add(at + "cd " + words.get(1) + ": no such folder");
                        return problems;
                    }
                    cwd = next;
                    continue;
                }
                if (MAVEN.contains(words.get(0))) {
                    checkMaven(words, cwd, at, problems);
                }
                checkPaths(words, cwd, at, problems);
            }
            if (subshell) {
                cwd = before; // (cd DIR && ...) moved only its subshell
            }
        }
        return problems;
    }

    private void checkMaven(List<String> words, Path cwd, String at, List<String> problems) {
        List<Path> modules = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String projects = w.equals("-pl") || w.equals("--projects") ? (i + 1 < words.size() ? words.get(++i) : "")
                    : w.startsWith("-pl=") ? w.substring(4) : null;
            if (projects != null) {
                for (String module : projects.split(",")) {
                    String m = module.replaceFirst("^[!-]", "");
                    if (m.isEmpty() || placeholder(m) || cwd.resolve(m).normalize().equals(root.resolve(ARCHETYPE_EXAMPLE))) {
                        continue;
                    }
                    Path dir = cwd.resolve(m).normalize();
                    if (!Files.isRegularFile(dir.resolve("pom.xml"))) {
                        problems.add(at + "-pl " + m + ": no module there (no " + root.relativize(dir) + "/pom.xml)");
                    } else {
                        modules.add(dir);
                    }
                }
            } else if (w.startsWith("-P") && w.length() > 2) {
                for (String profile : w.substring(2).split(",")) {
                    String p = profile.replaceFirst("^[!-]", "");
                    if (!profiles.contains(p)) {
                        problems.add(at + "-P" + p + ": no pom declares that profile");
                    }
                }
            }
        }
        for (String w : words) {
            Matcher m = Pattern.compile("^-D(test|it\\.test)=(.+)$").matcher(w);
            if (!m.matches()) {
                continue;
            }
            for (String pattern : m.group(2).split(",")) {
                String p = pattern.replaceFirst("^!", "").replaceFirst("#.*$", "");
                if (p.equalsIgnoreCase("none") || p.isEmpty()) { // the idiom for "no unit tests" (with failIfNoSpecifiedTests=false)
                    continue;
                }
                if (!testExists(p, modules.isEmpty() ? List.of(cwd) : modules)) {
                    problems.add(at + "-D" + m.group(1) + "=" + p + ": no test class matches it in "
                            + (modules.isEmpty() ? root.relativize(cwd) : modules.stream().map(root::relativize).toList()));
                }
            }
        }
    }

    private boolean testExists(String pattern, List<Path> modules) {
        // Surefire's forms: a simple name, a glob on it, or a package-qualified glob (dots as in the class name).
        String glob = pattern.contains(".") ? "**/" + pattern.replace('.', '/') + ".java" : "**/" + pattern + ".java";
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        for (Path module : modules) {
            for (String sources : List.of("src/test/java", "src/it/java", "src/test")) {
                Path dir = module.resolve(sources);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    if (files.anyMatch(f -> matcher.matches(Path.of("/").resolve(dir.relativize(f))))) {
                        return true;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return false;
    }

    private void checkPaths(List<String> words, Path cwd, String at, List<String> problems) {
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i).replaceFirst("^[A-Za-z_.-]+=", ""); // --flag=path, VAR=path
            if (i > 0 && (OUTPUT_FLAGS.contains(words.get(i - 1)) || words.get(i - 1).equals("-pl"))) {
                continue;
            }
            if (!PATH_TOKEN.matcher(w).matches() || placeholder(w) || w.contains("target/") || w.endsWith("/target")
                    || w.contains(ARCHETYPE_EXAMPLE)) {
                continue;
            }
            if (w.startsWith("../shared") && !Files.isDirectory(root.resolve("../shared"))) {
                continue;
            }
            Path first = cwd.resolve(w.replaceFirst("^\\./", "").split("/")[0]);
            if (!w.startsWith("./") && !w.startsWith("../") && !Files.exists(first)) {
                continue; // a word with slashes that is not a repository path (an image name, an API group/version)
            }
            if (!exists(cwd, w)) {
                problems.add(at + w + ": no such file or folder (from " + displayed(cwd) + ")");
            }
        }
    }

    private boolean exists(Path cwd, String path) {
        if (!path.contains("*")) {
            return Files.exists(cwd.resolve(path).normalize());
        }
        Path base = cwd;
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + path.replaceFirst("^\\./", ""));
        try (Stream<Path> files = Files.walk(base, 4)) {
            return files.anyMatch(f -> matcher.matches(base.relativize(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean generated(Path dir) {
        return dir.startsWith(root.resolve(ARCHETYPE_EXAMPLE));
    }

    private String displayed(Path cwd) {
        String rel = root.relativize(cwd).toString();
        return rel.isEmpty() ? "the repository root" : rel;
    }

    private static boolean placeholder(String word) {
        return word.contains("<") || word.contains("$") || word.contains("{") || word.contains("...");
    }

    /** The words of a command: split on spaces outside quotes, quotes removed; a trailing comment dropped. */
    static List<String> words(String command) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '#' && !inWord) {
                break;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(word.toString());
        }
        return out;
    }
}
