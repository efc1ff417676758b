package dev.tollgate.simulator.cli;

import jakarta.inject.Inject;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.vertx.http.HttpServer;
import picocli.CommandLine;

/**
 * Entry point: Quarkus has started (so the bundled functions are being served on a loopback port), then picocli runs
 * the command; its exit status is the process's.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    @Inject
    HttpServer server;

    @Override
    public int run(String... args) {
        CommandLine cli = new CommandLine(new TollgateCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ReviewCommand.class) {
                    return cls.cast(new ReviewCommand(() -> "http://127.0.0.1:" + server.getPort()));
                }
                if (cls == AuditCommand.class) {
                    return cls.cast(new AuditCommand(() -> "http://127.0.0.1:" + server.getPort()));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        });
        Launch.showVersion(cli);
        return cli.execute(args);
    }

    /** The launcher's entry point: see {@link Launch#run}. */
    public static void main(String... args) {
        Launch.run(Main.class, args);
    }
}
