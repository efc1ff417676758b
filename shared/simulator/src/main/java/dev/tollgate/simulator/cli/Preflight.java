package dev.tollgate.simulator.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line read before Quarkus starts: help and usage errors are answered at once (nothing is started,
 * nothing listens), and the rest tells whether the process must serve the bundled functions (on a free port of
 * 127.0.0.1) or listen on nothing at all.
 */
final class Preflight {

    /** What to do: exit now with {@code exitNow}, or start with or without the in-process bundle listening. */
    record Decision(Integer exitNow, boolean listen) {

        static Decision exit(int status) {
            return new Decision(status, false);
        }

        static Decision start(boolean listen) {
            return new Decision(null, listen);
        }
    }

    private Preflight() {
    }

    static Decision check(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = TollgateCommand.commandLine(() -> {
            throw new IllegalStateException("the in-process bundle is not served before start");
        });
        cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        String unknown = unknownCommand(cli, args);
        if (unknown != null) {
            err.println("tollgate: unknown command '" + unknown + "'; the commands are "
                    + String.join(", ", cli.getSubcommands().keySet()) + " (tollgate --help)");
            return Decision.exit(2);
        }
        ParseResult parsed;
        try {
            parsed = cli.parseArgs(args);
        } catch (ParameterException e) {
            try {
                return Decision.exit(e.getCommandLine().getParameterExceptionHandler().handleParseException(e, args));
            } catch (Exception handler) {
                err.println("tollgate: " + e.getMessage());
                return Decision.exit(2);
            }
        }
        List<ParseResult> chain = parsed.asCommandLineList().stream().map(CommandLine::getParseResult).toList();
        if (chain.stream().anyMatch(ParseResult::isVersionHelpRequested)) {
            return Decision.start(false); // the version is Quarkus's configuration (quarkus.application.version)
        }
        if (CommandLine.printHelpIfRequested(parsed)) {
            return Decision.exit(0);
        }
        if (!parsed.hasSubcommand()) {
            err.println("tollgate: a command is needed: " + String.join(", ", cli.getSubcommands().keySet())
                    + " (tollgate --help)");
            return Decision.exit(2);
        }
        Object command = chain.get(chain.size() - 1).commandSpec().userObject();
        return Decision.start(command instanceof LocalBundle b && b.needsLocalBundle());
    }

    /**
     * The first argument that is not an option, when it names no command. The top-level command's only options are
     * {@code -h} and {@code -V}, which take no value, so that argument is the one meant as a command.
     */
    private static String unknownCommand(CommandLine cli, String[] args) {
        for (String a : args) {
            if (a.startsWith("-")) {
                continue;
            }
            return cli.getSubcommands().containsKey(a) ? null : a;
        }
        return null;
    }
}
