package dev.tollgate.walkthrough;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every command block of a Markdown file with the mark on the line before its fence. A command block is a fence
 * labelled {@code bash}, {@code sh}, {@code shell} or {@code console}, or an unlabelled fence whose first line is a
 * command ({@code ./mvnw ...}); other fences (YAML, JSON, program output) are not commands.
 *
 * <p>The marks say who runs the block: {@code <!-- walkthrough: STEP -->} (DeployWalkthroughTest runs it), {@code
 * <!-- run by: TestClass -->} (that test reads the block and runs it) or {@code <!-- not run: needs ... -->} (what
 * it needs that a test machine lacks: a cluster, a cloud account, a registry, a container runtime, minutes of load).
 */
record CommandBlocks(List<Block> blocks) {

    /** One command block: where it starts (1-based line of the fence), its mark (null without) and its lines. */
    record Block(String where, int line, Mark mark, List<String> body) {

        List<String> commands() {
            return ReadmeBlocks.commands(body);
        }
    }

    /** A block's mark: its kind ({@code walkthrough}, {@code run by}, {@code not run}) and what follows it. */
    record Mark(String kind, String value) {
    }

    static final Set<String> KINDS = Set.of("walkthrough", "run by", "not run");
    private static final Set<String> COMMAND_LANGUAGES = Set.of("bash", "sh", "shell", "console");
    private static final Pattern MARK = Pattern.compile("^<!-- ([a-z ]+): (.+?) -->$");
    private static final Pattern COMMAND_START = Pattern.compile(
            "^(\\$ |\\./|\\.\\./|cd |kubectl |kn |terraform |curl |export |java |mvn |git |aws |bash |python3 )");

    static CommandBlocks parse(List<String> lines, String where) {
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).strip().startsWith("```")) {
                j++;
            }
            if (j == lines.size()) {
                throw new IllegalArgumentException(where + ":" + (i + 1) + ": the fenced block is not closed");
            }
            List<String> body = lines.subList(i + 1, j);
            if (isCommand(fence.substring(3).strip(), body)) {
                out.add(new Block(where, i + 1, i > 0 ? mark(lines.get(i - 1)) : null, List.copyOf(body)));
            }
            i = j;
        }
        return new CommandBlocks(List.copyOf(out));
    }

    private static boolean isCommand(String language, List<String> body) {
        if (COMMAND_LANGUAGES.contains(language)) {
            return true;
        }
        if (!language.isEmpty()) {
            return false;
        }
        return body.stream().filter(l -> !l.isBlank()).findFirst()
                .map(l -> COMMAND_START.matcher(l.strip()).find()).orElse(false);
    }

    private static Mark mark(String line) {
        Matcher m = MARK.matcher(line.strip());
        return m.matches() ? new Mark(m.group(1), m.group(2).strip()) : null;
    }
}
