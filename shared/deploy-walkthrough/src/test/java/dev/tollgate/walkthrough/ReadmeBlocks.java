package dev.tollgate.walkthrough;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command blocks of a README marked for the walk-through: a line {@code <!-- walkthrough: NAME -->} directly
 * before a fenced block. Blocks named {@code not run} are the steps the test cannot run here; every other name is a
 * block the test runs as written. The commands are the block's lines with continuations ({@code \} at the end)
 * joined and comment-only and blank lines dropped, so the test breaks when the README's commands change.
 */
final class ReadmeBlocks {

    static final String NOT_RUN = "not run";
    private static final Pattern MARK = Pattern.compile("^<!-- walkthrough: ([a-z -]+) -->$");

    private final Map<String, List<String>> blocks;
    private final int notRun;

    private ReadmeBlocks(Map<String, List<String>> blocks, int notRun) {
        this.blocks = blocks;
        this.notRun = notRun;
    }

    static ReadmeBlocks read(Path readme) {
        try {
            return parse(Files.readAllLines(readme), readme.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + readme, e);
        }
    }

    static ReadmeBlocks parse(List<String> lines, String where) {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        int notRun = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = MARK.matcher(lines.get(i).strip());
            if (!m.matches()) {
                continue;
            }
            String name = m.group(1);
            if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("```")) {
                throw new IllegalArgumentException(where + ":" + (i + 1) + ": the walkthrough mark '" + name
                        + "' is not directly followed by a fenced block");
            }
            List<String> body = new ArrayList<>();
            int j = i + 2;
            for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
                body.add(lines.get(j));
            }
            if (j == lines.size()) {
                throw new IllegalArgumentException(where + ":" + (i + 2) + ": the block '" + name + "' is not closed");
            }
            if (name.equals(NOT_RUN)) {
                notRun++;
            } else if (blocks.putIfAbsent(name, commands(body)) != null) {
                throw new IllegalArgumentException(where + ":" + (i + 1) + ": a second block named '" + name + "'");
            }
            i = j;
        }
        return new ReadmeBlocks(blocks, notRun);
    }

    /** The commands of every fenced block, marked or not (for checks over every example of a README). */
    static List<String> allCommands(List<String> lines) {
        List<String> out = new ArrayList<>();
        List<String> body = null;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                if (body == null) {
                    body = new ArrayList<>();
                } else {
                    out.addAll(commands(body));
                    body = null;
                }
            } else if (body != null) {
                body.add(line);
            }
        }
        return out;
    }

    /** The block's commands: continuation lines joined, blank and comment-only lines dropped. */
    static List<String> commands(List<String> body) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : body) {
            if (current.isEmpty() && (line.isBlank() || line.strip().startsWith("#"))) {
                continue;
            }
            if (line.endsWith("\\")) {
                current.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            current.append(line);
            out.add(current.toString().strip());
            current.setLength(0);
        }
        if (!current.isEmpty()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    /** The commands of the block {@code name}; fails naming the blocks there are when it is absent. */
    List<String> block(String name) {
        List<String> b = blocks.get(name);
        if (b == null) {
            throw new IllegalStateException("no block marked '<!-- walkthrough: " + name + " -->'; marked: "
                    + blocks.keySet());
        }
        return b;
    }

    List<String> names() {
        return List.copyOf(blocks.keySet());
    }

    /** How many blocks are marked as not run by the test. */
    int notRun() {
        return notRun;
    }
}
