package dev.tollgate.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;
import io.quarkus.runtime.StartupEvent;

/**
 * At startup, reads the function's own webhook.yaml (packaged at {@value Registrations#CLASSPATH_LOCATION}) and
 * refuses to start when an entry's path is not served here by a policy of its type (an admission policy for
 * {@code validating}/{@code mutating}, a conversion policy for {@code conversion}): a registration that points at
 * nothing, or at the wrong kind of policy, would turn every call into an error at the API server.
 */
@ApplicationScoped
public class RegistrationCheck {

    private static final Logger LOG = Logger.getLogger(RegistrationCheck.class);

    private volatile List<WebhookRegistration> registrations = List.of();

    void onStart(@Observes StartupEvent event, PolicyDirectory policies) {
        List<WebhookRegistration> found = load();
        List<String> problems = unserved(found, policies);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("webhook.yaml declares paths that no policy of the declared type serves: "
                    + problems);
        }
        registrations = List.copyOf(found);
        found.forEach(r -> LOG.infof("registration %s (%s) at %s", r.name(), r.type(), r.path()));
    }

    /** The entries (as {@code name (type) -> path}) that no policy of their type serves here. */
    static List<String> unserved(List<WebhookRegistration> entries, PolicyDirectory policies) {
        List<String> problems = new ArrayList<>();
        for (WebhookRegistration r : entries) {
            // A conversion entry needs a conversion policy at its path; an admission entry an admission policy.
            boolean served = r.conversion() ? policies.resolveConversion(r.path()).isPresent()
                    : policies.resolve(r.path()).isPresent();
            if (!served) {
                problems.add(r.name() + " (" + r.type() + ") -> " + r.path());
            }
        }
        return problems;
    }

    /** The webhook entries declared by the functions in this application. */
    public List<WebhookRegistration> registrations() {
        return registrations;
    }

    static List<WebhookRegistration> load() {
        List<WebhookRegistration> out = new ArrayList<>();
        try {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            for (URL url : Collections.list(cl.getResources(Registrations.CLASSPATH_LOCATION))) {
                try (InputStream in = url.openStream()) {
                    List<WebhookRegistration> entries = Registrations.read("", in, url.toString());
                    for (WebhookRegistration e : entries) {
                        String function = e.path().length() > 1 ? e.path().substring(1).split("/")[0] : "";
                        out.add(new WebhookRegistration(function, e.entry()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + Registrations.CLASSPATH_LOCATION, e);
        }
        return out;
    }
}
