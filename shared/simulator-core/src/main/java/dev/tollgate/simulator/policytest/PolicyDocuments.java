package dev.tollgate.simulator.policytest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.tollgate.cel.admission.ConfigFiles;
import dev.tollgate.simulator.InputException;

/** The documents of a test file's policy or schema files, read as the CEL functions read their configuration. */
public final class PolicyDocuments {

    private PolicyDocuments() {
    }

    /**
     * @param field names the test file's field in the error
     * @throws InputException when a file cannot be read, in one line
     */
    public static List<ConfigFiles.Document> read(String field, List<Path> paths) {
        try {
            return new ArrayList<>(ConfigFiles.read(paths));
        } catch (RuntimeException bad) {
            throw new InputException(field + ": " + oneLine(bad.getMessage()));
        }
    }

    /** A multi-line message (a list of problems) as one line. */
    public static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*-?\\s*", "; ").replace(":;", ":");
    }
}
