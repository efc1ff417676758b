package dev.tollgate.simulator.cli;

import java.util.function.Supplier;

import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code tollgate}: the Tollgate command line. */
@Command(name = "tollgate", mixinStandardHelpOptions = true,
        subcommands = { ReviewCommand.class, AuditCommand.class, ReplayCommand.class, ConvertCommand.class,
            TestCommand.class, RegistrationCommand.class },
        description = "Kubernetes admission control as serverless functions: local tools.")
@RegisterForReflection
public class TollgateCommand {

    /**
     * The command line, its review, audit, replay and test commands given the base URL of the bundle this process
     * serves (asked only when a command calls it).
     */
    static CommandLine commandLine(Supplier<String> localBundleUrl) {
        return new CommandLine(new TollgateCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == ReviewCommand.class) {
                    return cls.cast(new ReviewCommand(localBundleUrl));
                }
                if (cls == AuditCommand.class) {
                    return cls.cast(new AuditCommand(localBundleUrl));
                }
                if (cls == ReplayCommand.class) {
                    return cls.cast(new ReplayCommand(localBundleUrl));
                }
                if (cls == TestCommand.class) {
                    return cls.cast(new TestCommand(localBundleUrl));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        });
    }
}
