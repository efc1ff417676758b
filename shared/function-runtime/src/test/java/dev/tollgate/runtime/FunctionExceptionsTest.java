package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkus.runtime.configuration.ConfigurationException;

/** The exceptions file is read when the function starts: a bad one stops it, naming the key, file and problem. */
class FunctionExceptionsTest {

    @Test
    void aBadFileStopsTheFunctionWithOneLinePerProblem(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("exceptions.yaml"), """
                exceptions:
                  - name: no-reason
                    functions: [require-labels]
                    match: {names: [web]}
                    expires: "2099-12-31T00:00:00Z"
                """);
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> new FunctionExceptions(Optional.of(file.toString())));
        assertEquals("tollgate.exceptions.file: Exceptions file " + file + ": exception \"no-reason\": reason is "
                + "missing (say why the exception exists, for the review).", e.getMessage());
        Path missing = dir.resolve("absent.yaml");
        e = assertThrows(ConfigurationException.class, () -> new FunctionExceptions(Optional.of(missing.toString())));
        assertEquals(true, e.getMessage().startsWith("tollgate.exceptions.file: Exceptions file " + missing
                + ": cannot be read: "), e.getMessage());
    }

    @Test
    void theExceptionsAsJsonServeWhereNoFileCanBeMounted() throws Exception {
        String json = """
                {"exceptions":[{"name":"ci-bot","functions":["require-labels"],"match":{"users":["ci-bot"]},
                 "reason":"CI redeploys","expires":"2099-12-31T00:00:00Z"}]}""";
        FunctionExceptions exceptions = new FunctionExceptions(Optional.empty(), Optional.of(json));
        dev.tollgate.admission.AdmissionRequest byBot = request("ci-bot");
        assertEquals("ci-bot", exceptions.exceptedBy("require-labels", byBot).orElseThrow().name());
        assertEquals(Optional.empty(), exceptions.exceptedBy("require-labels", request("alice")).map(e -> e.name()));
        assertEquals(Optional.empty(), exceptions.exceptedBy("always-pull-images", byBot).map(e -> e.name()));

        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> new FunctionExceptions(Optional.empty(), Optional.of("{\"exceptions\": [")));
        assertEquals(true, e.getMessage().startsWith("tollgate.exceptions.json: Exceptions of "
                + "tollgate.exceptions.json: not JSON: "), e.getMessage());
        e = assertThrows(ConfigurationException.class,
                () -> new FunctionExceptions(Optional.of("/etc/tollgate/exceptions.yaml"), Optional.of(json)));
        assertEquals("tollgate.exceptions.file and tollgate.exceptions.json are both set: give the exceptions once",
                e.getMessage());
    }

    private static dev.tollgate.admission.AdmissionRequest request(String user) throws Exception {
        return new dev.tollgate.admission.AdmissionCodec().decode(dev.tollgate.testing.ReviewBuilder
                .create(dev.tollgate.testing.Pods.minimal("web")).user(user).build()).request();
    }

    @Test
    void noFileExceptsNothing() {
        assertEquals(Optional.empty(), new FunctionExceptions(Optional.empty()).exceptedBy("require-labels", null));
    }
}
