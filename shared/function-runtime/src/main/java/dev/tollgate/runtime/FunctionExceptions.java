package dev.tollgate.runtime;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.exceptions.RequestException;
import dev.tollgate.admission.exceptions.RequestExceptions;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The reviewed exceptions file ({@code tollgate.exceptions.file}, env {@code TOLLGATE_EXCEPTIONS_FILE}; Terraform
 * mounts it), applied by the function to the requests the API server sends it: Terraform compiles each exception into
 * the webhook's matchConditions or selectors where the cluster's version can express it and leaves the rest to the
 * function ({@code exceptions_applied_by_function}). Read at startup: a bad file stops the function with one line
 * per problem, as the plan words them. Expiry is checked per request, so an exception ends on time without a restart.
 */
@Startup
@ApplicationScoped
public class FunctionExceptions {

    static final String FILE = "tollgate.exceptions.file";

    private static final Logger LOG = Logger.getLogger(FunctionExceptions.class);

    private final RequestExceptions exceptions;

    FunctionExceptions() {
        this.exceptions = null; // for CDI proxies
    }

    @Inject
    public FunctionExceptions(@ConfigProperty(name = FILE) Optional<String> file) {
        this(file.filter(f -> !f.isBlank()).map(f -> read(Path.of(f.strip()))).orElse(RequestExceptions.none()));
    }

    FunctionExceptions(RequestExceptions exceptions) {
        this.exceptions = exceptions;
    }

    /** The unexpired exception that describes {@code request} to {@code function}, if any. */
    public Optional<RequestException> exceptedBy(String function, AdmissionRequest request) {
        return exceptions.isEmpty() ? Optional.empty() : exceptions.exceptedBy(function, request, Instant.now());
    }

    private static RequestExceptions read(Path file) {
        RequestExceptions read;
        try {
            read = RequestExceptions.read(file);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(FILE + ": " + e.getMessage());
        }
        LOG.infof("exceptions: %s", file);
        read.all().stream().filter(e -> !e.appliesInFunction()).forEach(e -> LOG.warnf("exception %s selects "
                + "namespaces by label, which only the API server's namespaceSelector can read: a request sent "
                + "here is not excepted by it", e.name()));
        return read;
    }
}
