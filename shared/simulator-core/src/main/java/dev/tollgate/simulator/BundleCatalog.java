package dev.tollgate.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * The webhook entries of the functions bundled with the simulator: every {@value Registrations#CLASSPATH_LOCATION}
 * on the class path (each function jar packages its own), so the catalog always matches the code that serves it.
 * Admission entries ({@link #registrations()}) become webhook configurations; conversion entries
 * ({@link #conversions()}) belong in a CRD's {@code spec.conversion} and are what {@code tollgate convert} plays.
 */
public final class BundleCatalog {

    private BundleCatalog() {
    }

    /** The admission webhook entries (validating and mutating), by function. */
    public static List<WebhookRegistration> registrations() {
        return all().stream().filter(r -> !r.conversion()).toList();
    }

    /** The CRD conversion entries, by function. */
    public static List<WebhookRegistration> conversions() {
        return all().stream().filter(WebhookRegistration::conversion).toList();
    }

    private static List<WebhookRegistration> all() {
        List<WebhookRegistration> out = new ArrayList<>();
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        try {
            for (URL url : Collections.list(cl.getResources(Registrations.CLASSPATH_LOCATION))) {
                try (InputStream in = url.openStream()) {
                    for (WebhookRegistration e : Registrations.read("", in, url.toString())) {
                        // The function is the first segment of the entry's path, e.g. /pod-security/enforce/...
                        String function = e.path().length() > 1 ? e.path().substring(1).split("/")[0] : "";
                        out.add(new WebhookRegistration(function, e.entry()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + Registrations.CLASSPATH_LOCATION, e);
        }
        out.sort(Comparator.comparing(WebhookRegistration::function));
        return out;
    }
}
