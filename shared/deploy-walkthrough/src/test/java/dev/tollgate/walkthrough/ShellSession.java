package dev.tollgate.walkthrough;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One bash session across the README's blocks, as a reader would type them: each block runs as a script, one
 * command after another, each command's exit code and output recorded on its own; the working directory and the
 * exported variables carry over to the next block ({@code cd}, {@code export}). Standard input is {@code yes}, the
 * answer to {@code terraform apply}'s confirmation.
 */
final class ShellSession {

    /** One command as run: its text, exit code, standard output and error. */
    record Step(String command, int exit, String stdout, String stderr) {
        String describe() {
            return "$ " + command + "\n(exit " + exit + ")\n" + stdout + (stderr.isBlank() ? "" : "\nstderr:\n" + stderr);
        }
    }

    private final Path work;
    private final Map<String, String> environment;
    private Path cwd;
    private int scripts;

    /**
     * @param work        where the scripts, outputs and the carried-over state are written
     * @param cwd         the first block's working directory
     * @param environment the session's starting environment (nothing is inherited beyond it)
     */
    ShellSession(Path work, Path cwd, Map<String, String> environment) {
        this.work = work;
        this.cwd = cwd;
        this.environment = Map.copyOf(environment);
    }

    Path cwd() {
        return cwd;
    }

    /** Runs the commands in order (a failing one does not stop the next); one {@link Step} per command. */
    List<Step> run(String block, List<String> commands) {
        int n = ++scripts;
        Path dir = work.resolve(n + "-" + block.replace(' ', '-'));
        try {
            Files.createDirectories(dir);
            Path state = work.resolve("exported.sh");
            StringBuilder script = new StringBuilder("set -o pipefail\n");
            script.append("cd ").append(quote(cwd.toString())).append(" || exit 97\n");
            script.append("if [ -f ").append(quote(state.toString())).append(" ]; then . ")
                    .append(quote(state.toString())).append("; fi\n");
            for (int i = 0; i < commands.size(); i++) {
                Path out = dir.resolve(i + ".out");
                Path err = dir.resolve(i + ".err");
                script.append("{ ").append(commands.get(i)).append("\n} >").append(quote(out.toString()))
                        .append(" 2>").append(quote(err.toString())).append("; echo $? >")
                        .append(quote(dir.resolve(i + ".rc").toString())).append('\n');
            }
            script.append("pwd >").append(quote(dir.resolve("cwd").toString())).append('\n');
            script.append("export -p | grep -v -E '^declare -x (OLDPWD|PWD|SHLVL|_)=' >")
                    .append(quote(state.toString())).append('\n');
            Path file = dir.resolve("block.sh");
            Files.writeString(file, script);
            Path yes = dir.resolve("stdin");
            Files.writeString(yes, "yes\n");

            ProcessBuilder pb = new ProcessBuilder("bash", file.toString()).directory(cwd.toFile())
                    .redirectInput(yes.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("session.log").toFile());
            pb.environment().clear();
            pb.environment().putAll(environment);
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("the block '" + block + "' did not finish within 10 minutes; see "
                        + dir);
            }
            List<Step> steps = new ArrayList<>();
            for (int i = 0; i < commands.size(); i++) {
                Path rc = dir.resolve(i + ".rc");
                int exit = Files.exists(rc) ? Integer.parseInt(Files.readString(rc).strip()) : -1;
                steps.add(new Step(commands.get(i), exit, read(dir.resolve(i + ".out")), read(dir.resolve(i + ".err"))));
            }
            Path newCwd = dir.resolve("cwd");
            if (Files.exists(newCwd)) {
                cwd = Path.of(Files.readString(newCwd).strip());
            }
            return steps;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the block '" + block + "' in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
