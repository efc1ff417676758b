package dev.tollgate.runtime;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.exceptions.RequestException;
import dev.tollgate.admission.exceptions.RequestExceptions;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The reviewed exceptions file ({@code tollgate.exceptions.file}, env {@code TOLLGATE_EXCEPTIONS_FILE}; Terraform
 * mounts it on Knative), or its content as JSON ({@code tollgate.exceptions.json}, env {@code TOLLGATE_EXCEPTIONS_JSON};
 * Terraform sets it on AWS Lambda, where nothing can be mounted beside the package), applied by the function to the
 * requests the API server sends it: Terraform compiles each exception into
 * the webhook's matchConditions or selectors where the cluster's version can express it and leaves the rest to the
 * function ({@code exceptions_applied_by_function}). Read at startup: a bad file stops the function with one line
 * per problem, as the plan words them. Expiry is checked per request, so an exception ends on time without a restart.
 */
@Startup
@ApplicationScoped
public class FunctionExceptions {

    static final String FILE = "tollgate.exceptions.file";
    static final String JSON = "tollgate.exceptions.json";

    private static final Logger LOG = Logger.getLogger(FunctionExceptions.class);

    private final RequestExceptions exceptions;

    FunctionExceptions() {
        this.exceptions = null; // for CDI proxies
    }

    @Inject
    public FunctionExceptions(@ConfigProperty(name = FILE) Optional<String> file,
            @ConfigProperty(name = JSON) Optional<String> json) {
        this(read(file.filter(f -> !f.isBlank()), json.filter(j -> !j.isBlank())));
    }

    FunctionExceptions(Optional<String> file) {
        this(file, Optional.empty());
    }

    FunctionExceptions(RequestExceptions exceptions) {
        this.exceptions = exceptions;
    }

    /** The unexpired exception that describes {@code request} to {@code function}, if any. */
    public Optional<RequestException> exceptedBy(String function, AdmissionRequest request) {
        return exceptions.isEmpty() ? Optional.empty() : exceptions.exceptedBy(function, request, Instant.now());
    }

    private static RequestExceptions read(Optional<String> file, Optional<String> json) {
        if (file.isPresent() && json.isPresent()) {
            throw new ConfigurationException(FILE + " and " + JSON + " are both set: give the exceptions once");
        }
        RequestExceptions read;
        try {
            if (file.isPresent()) {
                read = RequestExceptions.read(Path.of(file.get().strip()));
            } else if (json.isPresent()) {
                read = RequestExceptions.parse(parse(json.get()), "Exceptions of " + JSON);
            } else {
                return RequestExceptions.none();
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException((file.isPresent() ? FILE : JSON) + ": " + e.getMessage());
        }
        LOG.infof("exceptions: %s", file.orElse(JSON));
        read.all().stream().filter(e -> !e.appliesInFunction()).forEach(e -> LOG.warnf("exception %s selects "
                + "namespaces by label, which only the API server's namespaceSelector can read: a request sent "
                + "here is not excepted by it", e.name()));
        return read;
    }

    private static JsonNode parse(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Exceptions of " + JSON + ": not JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
    }
}
