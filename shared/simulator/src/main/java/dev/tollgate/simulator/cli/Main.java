package dev.tollgate.simulator.cli;

import jakarta.inject.Inject;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.vertx.http.HttpServer;
import picocli.CommandLine;

/**
 * Entry point: Quarkus has started (serving the bundled functions on a free loopback port when the command calls
 * them, see {@link Preflight}), then picocli runs the command; its exit status is the process's.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    @Inject
    HttpServer server;

    @Override
    public int run(String... args) {
        CommandLine cli = TollgateCommand.commandLine(() -> "http://127.0.0.1:" + server.getPort());
        Launch.showVersion(cli);
        return cli.execute(args);
    }

    /** The launcher's entry point: see {@link Launch#run}. */
    public static void main(String... args) {
        Launch.run(Main.class, args);
    }
}
