package dev.tollgate.functions.requirelabels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The packaged function (fast-jar, or the native executable with -Dnative) started as a newcomer would, with no
 * caller check configured: it must refuse to start with one line that says what to set, with the exact -D and
 * environment spellings and the README to read, and exit non-zero; no stack trace.
 */
class StartWithoutCallerCheckIT {

    @Test
    void refusesToStartWithOneLineThatSaysWhatToSet() throws Exception {
        List<String> command = new ArrayList<>(launcher());
        command.addAll(List.of("-Dquarkus.http.port=0", "-Dquarkus.management.port=0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("TOLLGATE_AUTH_"));
        Process process = builder.start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the function did not exit: " + output);
        assertEquals(1, process.exitValue(), output);
        assertEquals(1, output.lines().count(), "one line, no stack trace:\n" + output);
        assertTrue(output.startsWith("no caller check is configured"), output);
        for (String part : List.of("-Dtollgate.auth.required=false", "TOLLGATE_AUTH_REQUIRED=false",
                "tollgate.auth.bearer.values", "shared/function-runtime/README.md")) {
            assertTrue(output.contains(part), "the line names " + part + ": " + output);
        }
    }

    /** How to start what `package` built: target/quarkus-artifact.properties says whether it is a jar or native. */
    private static List<String> launcher() throws Exception {
        Path target = Path.of("target");
        Properties artifact = new Properties();
        try (InputStream in = Files.newInputStream(target.resolve("quarkus-artifact.properties"))) {
            artifact.load(in);
        }
        Path path = target.resolve(artifact.getProperty("path"));
        if ("native".equals(artifact.getProperty("type"))) {
            return List.of(path.toAbsolutePath().toString());
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        return List.of(java, "-jar", path.toAbsolutePath().toString());
    }
}
