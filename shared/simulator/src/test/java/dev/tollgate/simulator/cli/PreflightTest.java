package dev.tollgate.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The command line as read before anything starts: a subcommand's help is that subcommand's (exit 0, nothing
 * started), an unknown subcommand is a usage error naming it (exit 2). {@code tollgate test --help} once printed the
 * top-level help, and {@code tollgate nosuch} the top-level help with exit 0. The packaged CLI is checked the same
 * way, with ports held, in LaunchIT.
 */
class PreflightTest {

    record Outcome(Preflight.Decision decision, String stdout, String stderr) {
    }

    static Outcome check(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Preflight.Decision d = Preflight.check(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(d, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachSubcommandsHelpIsItsOwn() {
        for (String command : List.of("test", "review", "audit", "convert", "registration")) {
            Outcome o = check(command, "--help");
            assertEquals(0, o.decision().exitNow(), command + ": " + o.stderr());
            assertTrue(o.stdout().startsWith("Usage: tollgate " + command + " "), command + ": " + o.stdout());
            assertEquals("", o.stderr(), command);
        }
        Outcome top = check("--help");
        assertEquals(0, top.decision().exitNow());
        assertTrue(top.stdout().startsWith("Usage: tollgate "), top.stdout());
    }

    @Test
    void anUnknownSubcommandIsAUsageErrorNamingIt() {
        Outcome o = check("nosuch");
        assertEquals(2, o.decision().exitNow());
        assertEquals("", o.stdout(), "no help on stdout");
        assertEquals(List.of("tollgate: unknown command 'nosuch'; the commands are review, audit, replay, convert, "
                + "test, registration (tollgate --help)"), o.stderr().lines().toList());
    }

    @Test
    void aKnownSubcommandStartsListeningOnlyWhenItServesTheBundle() {
        assertEquals(Preflight.Decision.start(false),
                check("review", "--url", "https://127.0.0.1:8443", "pod.yaml").decision(), "--url: nothing served");
        assertEquals(Preflight.Decision.start(true), check("review", "pod.yaml").decision(), "the bundle in-process");
    }
}
