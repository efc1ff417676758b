package dev.tollgate.simulator.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.runtime.PolicyDirectory;
import dev.tollgate.simulator.Configurations;
import dev.tollgate.simulator.Conversions;
import dev.tollgate.simulator.HttpWebhookClient;
import dev.tollgate.simulator.InputException;
import dev.tollgate.simulator.InputManifest;
import dev.tollgate.simulator.SecretUrls;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.RegisterForReflection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tollgate convert}: what a CRD's conversion webhook makes of these custom resources in another version. */
@Command(name = "convert", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Converts custom resources to another version of their CRD as the API server would: objects already in "
                    + "that version are not sent, the others go to the conversion webhook in one ConversionReview per "
                    + "kind, and the answer must pass the API server's checks (count, order, apiVersion, kind, "
                    + "metadata).",
            "With no --url, a conversion policy bundled with this tool (crd-conversion) runs in-process.",
            "Exit status: 0 when every object converted, 1 when any conversion failed, 2 for bad input." },
        exitCodeOnInvalidInput = 2, exitCodeOnExecutionException = 2)
@RegisterForReflection
public class ConvertCommand implements Callable<Integer> {

    @Option(names = "--to", required = true, paramLabel = "GROUP/VERSION",
            description = "the desired apiVersion, e.g. data.tollgate.dev/v1")
    String to;

    @Parameters(arity = "1..*", paramLabel = "MANIFEST",
            description = "YAML or JSON files, or folders of them (each document one object; Lists are expanded)")
    List<Path> manifests;

    @Option(names = "--url", paramLabel = "URL", description = "a running conversion webhook: the CRD's "
            + "clientConfig.url, e.g. https://host/<path token>/crd-conversion")
    String url;

    @Option(names = "--ca-file", paramLabel = "PEM", description = "CA certificates to trust for an HTTPS --url")
    Path caFile;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "how long to wait for --url (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--function", paramLabel = "NAME", description = "the bundled conversion policy to run when "
            + "there are several")
    String function;

    @Option(names = "--review-version", defaultValue = "v1", paramLabel = "VERSION",
            description = "ConversionReview version to send: v1 (default) or v1beta1, the first of the CRD's "
                    + "conversionReviewVersions that the API server knows")
    String reviewVersion;

    @Option(names = { "-o", "--output" }, defaultValue = "text", description = "text (default) or json")
    String output;

    private final Supplier<Map<String, ConversionPolicy>> bundled;

    /** The policies bundled with this application, by function name (as the function runtime serves them). */
    public ConvertCommand() {
        this(() -> Arc.container().instance(PolicyDirectory.class).get().conversions());
    }

    public ConvertCommand(Supplier<Map<String, ConversionPolicy>> bundled) {
        this.bundled = bundled;
    }

    @Override
    public Integer call() {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            if (!output.equals("text") && !output.equals("json")) {
                throw new InputException("--output must be text or json, got '" + output + "'");
            }
            ReviewVersion version = ReviewVersion.fromShortName(reviewVersion).orElseThrow(
                    () -> new InputException("--review-version must be v1 or v1beta1, got '" + reviewVersion + "'"));
            Conversions.Target target = target();
            List<InputManifest> inputs = InputManifest.read(manifests);
            if (inputs.isEmpty()) {
                throw new InputException("no manifests found in " + manifests);
            }
            Conversions.Run run = Conversions.convert(inputs, to, version, target);
            out.print(output.equals("json") ? Conversions.json(run) : Conversions.text(run, to, target.describe()));
            return run.allConverted() ? 0 : 1;
        } catch (InputException e) {
            System.err.println("tollgate convert: " + SecretUrls.redactIn(e.getMessage()));
            return 2;
        }
    }

    private Conversions.Target target() {
        if (url != null) {
            if (function != null) {
                throw new InputException("--function selects a bundled policy; it cannot go with --url");
            }
            String ca = caFile == null ? "" : Base64.getEncoder().encodeToString(
                    Configurations.readPem(caFile).getBytes(StandardCharsets.UTF_8));
            if (timeoutSeconds < 1) {
                throw new InputException("--timeout must be at least 1 second");
            }
            return Conversions.remote(url, ca, timeoutSeconds, new HttpWebhookClient(""));
        }
        Map<String, ConversionPolicy> policies = bundled.get();
        Set<String> names = new TreeSet<>(policies.keySet());
        if (function != null) {
            ConversionPolicy policy = policies.get(function);
            if (policy == null) {
                throw new InputException("--function " + function + " is not a bundled conversion policy; bundled: "
                        + names);
            }
            return Conversions.inProcess(function, policy);
        }
        if (policies.size() != 1) {
            throw new InputException(policies.isEmpty() ? "no conversion policy is bundled: give --url"
                    : "several conversion policies are bundled " + names + ": choose one with --function");
        }
        String only = names.iterator().next();
        return Conversions.inProcess(only, policies.get(only));
    }
}
