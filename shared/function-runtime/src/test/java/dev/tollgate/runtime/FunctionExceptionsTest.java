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
    void noFileExceptsNothing() {
        assertEquals(Optional.empty(), new FunctionExceptions(Optional.empty()).exceptedBy("require-labels", null));
    }
}
