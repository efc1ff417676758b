package dev.tollgate.catalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.registration.RegistrationValidator;
import dev.tollgate.admission.registration.Registrations;
import dev.tollgate.admission.registration.WebhookRegistration;

/**
 * The Terraform catalog: every webhook entry that {@code functions/<name>/webhook.yaml} declares, grouped by function,
 * as {@code {"functions": {"<name>": {"webhooks": [{"type", "path", "webhook": {...}}]}}}}. The {@code webhook} object
 * holds the admissionregistration.k8s.io/v1 fields exactly as declared (without Tollgate's {@code type}/{@code path}),
 * so the Terraform module adds only {@code clientConfig} and the caller's overrides.
 *
 * <p>Conversion entries ({@code type: conversion}) go to their own section, keyed by CRD:
 * {@code {"conversions": {"<crd>": {"function", "path", "versions", "webhook": {"conversionReviewVersions"}}}}}; a
 * function that declares only conversions is not listed under {@code functions}, so the admission modules never
 * see it.
 */
public final class RegistrationCatalog {

    /** Where the catalog is committed, relative to the repository root. */
    public static final String CATALOG_PATH = "terraform/catalog/catalog.json";
    /** The command that rewrites the committed catalog; drift messages name it. */
    public static final String REGENERATE_COMMAND = "./mvnw -B -q -pl shared/registration-catalog compile exec:java";

    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistrationCatalog() {
    }

    /**
     * Builds the catalog from every {@code functions/*}{@code /webhook.yaml} under {@code root}.
     *
     * @throws IllegalArgumentException listing every problem when a registration breaks the API server's rules or two
     *                                  functions declare the same webhook name
     */
    public static ObjectNode build(Path root) {
        Path functionsDir = root.resolve("functions");
        if (!Files.isDirectory(functionsDir)) {
            throw new IllegalArgumentException(functionsDir + " does not exist: pass the repository root");
        }
        ObjectNode catalog = JSON.createObjectNode();
        catalog.put("generated_by", REGENERATE_COMMAND + " (from functions/*/webhook.yaml; do not edit by hand)");
        ObjectNode functions = catalog.putObject("functions");
        List<String> problems = new ArrayList<>();
        Map<String, String> owners = new HashMap<>();
        Map<String, String> crdOwners = new HashMap<>();
        Map<String, ObjectNode> conversionsByCrd = new TreeMap<>();
        for (Path file : Registrations.findAll(functionsDir)) {
            List<WebhookRegistration> registrations;
            try {
                registrations = Registrations.load(file);
            } catch (RuntimeException e) { // the YAML parser reports some syntax errors unchecked, without the file
                String message = String.valueOf(e.getMessage());
                problems.add(message.contains(file.toString()) ? message : file + ": cannot read: " + message);
                continue;
            }
            ArrayNode webhooks = JSON.createArrayNode();
            for (WebhookRegistration r : registrations) {
                List<String> invalid = RegistrationValidator.validateDeclared(r);
                problems.addAll(invalid);
                if (r.conversion()) {
                    String previous = crdOwners.putIfAbsent(r.crd(), r.function());
                    if (previous != null) {
                        problems.add(r.function() + "/webhook.yaml[" + r.crd() + "].crd: already converted by "
                                + previous + "; a CustomResourceDefinition has one conversion webhook");
                    }
                    if (invalid.isEmpty()) {
                        ObjectNode entry = JSON.createObjectNode();
                        entry.put("function", r.function());
                        entry.put("path", r.path());
                        entry.set("versions", r.entry().get("versions"));
                        entry.set("webhook", r.webhook());
                        conversionsByCrd.put(r.crd(), entry);
                    }
                    continue;
                }
                String previous = owners.putIfAbsent(r.name(), r.function());
                if (previous != null) {
                    problems.add(r.function() + "/webhook.yaml[" + r.name() + "].name: already declared by "
                            + previous + "; webhook names must be unique across all functions");
                }
                ObjectNode entry = webhooks.addObject();
                entry.put("type", r.type().name());
                entry.put("path", r.path());
                entry.set("webhook", r.webhook());
            }
            if (!webhooks.isEmpty()) {
                functions.putObject(registrations.get(0).function()).set("webhooks", webhooks);
            }
        }
        if (!conversionsByCrd.isEmpty()) {
            catalog.putObject("conversions").setAll(conversionsByCrd);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid webhook registrations:\n  " + String.join("\n  ", problems));
        }
        return catalog;
    }

    /** The catalog as committed: two-space indented JSON with a trailing newline, the same bytes on every platform. */
    public static String render(ObjectNode catalog) {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance()
                        .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter)
                .withArrayIndenter(indenter);
        try {
            return JSON.writer(printer).writeValueAsString(catalog) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the catalog", e);
        }
    }

    /**
     * Lists the functions (and converted CRDs) that are new since the committed catalog, and nothing else: the build
     * runs this, so a function just generated is in the catalog with no hand step. A changed or removed entry is left
     * for {@code CatalogTest} to report: the catalog is what Terraform registers in every governed cluster, so what an
     * existing function is sent changes only when someone regenerates on purpose ({@link #REGENERATE_COMMAND}).
     * Nothing is written unless new entries are the only difference.
     *
     * @return the names added (conversions as {@code crd}), empty when nothing was written
     * @throws IllegalArgumentException as {@link #build} does
     */
    public static List<String> addNew(Path root) {
        ObjectNode built = build(root);
        Path target = root.resolve(CATALOG_PATH);
        JsonNode committed;
        try {
            committed = Files.isRegularFile(target) ? JSON.readTree(target.toFile()) : JSON.createObjectNode();
        } catch (IOException e) {
            return List.of(); // unreadable: CatalogTest names the file
        }
        List<String> added = new ArrayList<>();
        for (String section : List.of("functions", "conversions")) {
            JsonNode was = committed.path(section);
            JsonNode now = built.path(section);
            for (String name : (Iterable<String>) was::fieldNames) {
                if (!was.get(name).equals(now.path(name))) {
                    return List.of(); // changed or removed: for a person to regenerate
                }
            }
            now.fieldNames().forEachRemaining(name -> {
                if (!was.has(name)) {
                    added.add(name);
                }
            });
        }
        if (added.isEmpty() && Files.isRegularFile(target)) {
            return List.of();
        }
        write(root);
        return added;
    }

    /** Rewrites {@code terraform/catalog/catalog.json} under {@code root}; returns the file written. */
    public static Path write(Path root) {
        Path target = root.resolve(CATALOG_PATH);
        try {
            Files.createDirectories(target.getParent());
            Files.writeString(target, render(build(root)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
        return target;
    }
}
