package dev.tollgate.simulator;

import java.util.List;

/** Bad input to the simulator (a manifest, a configuration, an option): reported to the user, exit status 2. */
public class InputException extends RuntimeException {

    public InputException(String message) {
        super(message);
    }

    public InputException(String message, Throwable cause) {
        super(message, cause);
    }

    /** One exception listing every problem, one per line. */
    public static InputException of(String what, List<String> problems) {
        return new InputException(what + ":\n  - " + String.join("\n  - ", problems));
    }
}
