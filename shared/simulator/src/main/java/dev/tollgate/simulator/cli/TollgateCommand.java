package dev.tollgate.simulator.cli;

import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;

/** {@code tollgate}: the Tollgate command line. */
@Command(name = "tollgate", mixinStandardHelpOptions = true,
        subcommands = { ReviewCommand.class, AuditCommand.class, ConvertCommand.class },
        description = "Kubernetes admission control as serverless functions: local tools.")
@RegisterForReflection
public class TollgateCommand {
}
