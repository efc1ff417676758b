package dev.tollgate.catalog;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/** Every function's declared registration passes the API server's validation rules (issue 2's shared check). */
class WebhookYamlRulesTest {

    @TestFactory
    Stream<DynamicTest> everyWebhookYamlPassesTheApiServerRules() {
        List<Path> files = Registrations.findAll(ProjectRoot.get().resolve("functions"));
        assertFalse(files.isEmpty(), "no functions/*/webhook.yaml found under " + ProjectRoot.get());
        return files.stream().map(file -> DynamicTest.dynamicTest(
                ProjectRoot.get().relativize(file).toString(), () -> {
                    List<WebhookRegistration> entries = Registrations.load(file);
                    for (WebhookRegistration entry : entries) {
                        List<String> errors = RegistrationValidator.validateDeclared(entry);
                        assertTrue(errors.isEmpty(), file + " breaks the API server's rules:\n  "
                                + String.join("\n  ", errors));
                    }
                }));
    }
}
