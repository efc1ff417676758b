package dev.tollgate.admission.exceptions;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.Operation;
import dev.tollgate.admission.match.LabelSelector;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * The reviewed exceptions file (terraform/README.md, "Exceptions"), read by a function so that it applies the
 * exceptions for it itself: those the API server cannot apply on a cluster's version are sent to the function
 * (Terraform lists them as {@code exceptions_applied_by_function}), and applying one the API server already applied
 * changes nothing, since its requests never arrive. The file is checked as the plan checks it
 * (terraform/modules/webhook-configurations/exceptions.tf): one line per problem, naming the exception and field.
 */
public final class RequestExceptions {

    private static final ObjectMapper YAML = new ObjectMapper(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());
    private static final Set<String> FIELDS = Set.of("name", "functions", "match", "reason", "expires");
    private static final Set<String> MATCH_FIELDS = Set.of("namespaces", "names", "namespace_labels", "object_labels",
            "users", "groups", "service_accounts", "operations");

    private final List<RequestException> exceptions;

    private RequestExceptions(List<RequestException> exceptions) {
        this.exceptions = List.copyOf(exceptions);
    }

    public static RequestExceptions none() {
        return new RequestExceptions(List.of());
    }

    /**
     * Reads an exceptions file ({@code exceptions:} list, YAML or JSON).
     *
     * @throws IllegalArgumentException one line per problem, each naming the file, the exception and the field
     */
    public static RequestExceptions read(Path file) {
        JsonNode root;
        try {
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("Exceptions file " + file + ": cannot be read: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        return parse(root, "Exceptions file " + file);
    }

    /** As {@link #read}, from the parsed document; {@code where} starts every message. */
    public static RequestExceptions parse(JsonNode root, String where) {
        List<String> problems = new ArrayList<>();
        List<RequestException> out = new ArrayList<>();
        JsonNode list = root == null ? null : root.get("exceptions");
        if (root == null || !root.isObject() || list == null || !(list.isArray() || list.isNull())) {
            throw new IllegalArgumentException(where + ": expected a mapping with an 'exceptions' list");
        }
        Set<String> seen = new HashSet<>();
        int index = 0;
        for (JsonNode entry : list.isNull() ? List.<JsonNode>of() : list) {
            String at = where + ": exception " + (entry.path("name").isTextual()
                    ? "\"" + entry.path("name").asText() + "\"" : "#" + index);
            index++;
            if (!entry.isObject()) {
                problems.add(at + ": expected a mapping");
                continue;
            }
            List<String> unknown = new ArrayList<>(unknown(entry, FIELDS, ""));
            String name = entry.path("name").asText("");
            if (!LabelSyntax.isDnsLabel(name)) {
                problems.add(at + ": name must be a DNS label (lower-case letters, digits and '-', at most 63 "
                        + "characters)");
            } else if (!seen.add(name)) {
                problems.add(at + ": name repeats an earlier exception's");
            }
            Set<String> functions = strings(entry.get("functions"), "functions", at, problems);
            if (functions.isEmpty()) {
                problems.add(at + ": functions must be a non-empty list of catalog functions");
            }
            JsonNode match = entry.get("match");
            if (match != null && match.isObject()) {
                unknown.addAll(unknown(match, MATCH_FIELDS, "match."));
            }
            if (!unknown.isEmpty()) {
                problems.add(at + ": unknown field(s) " + String.join(", ", unknown) + " (known: name, functions, "
                        + "match, reason, expires; match: namespaces, names, namespace_labels, object_labels, users, "
                        + "groups, service_accounts, operations)");
            }
            if (match == null || !match.isObject() || match.isEmpty()) {
                problems.add(at + ": match must give at least one criterion (an exception for every request would "
                        + "switch the function off)");
                continue;
            }
            Set<Operation> operations = new LinkedHashSet<>();
            List<String> badOperations = new ArrayList<>();
            for (String op : strings(match.get("operations"), "match.operations", at, problems)) {
                try {
                    operations.add(Operation.valueOf(op));
                } catch (IllegalArgumentException e) {
                    badOperations.add("\"" + op + "\"");
                }
            }
            if (!badOperations.isEmpty()) {
                problems.add(at + ": match.operations must be a list of operations (CREATE, UPDATE, DELETE, CONNECT) "
                        + "(not: " + String.join(", ", badOperations) + ")");
            }
            Set<String> accounts = strings(match.get("service_accounts"), "match.service_accounts", at, problems);
            for (String account : accounts) {
                String[] parts = account.split("/", -1);
                if (parts.length != 2 || !LabelSyntax.isDnsLabel(parts[0])
                        || (!parts[1].equals("*") && parts[1].isEmpty())) {
                    problems.add(at + ": match.service_accounts: '" + account + "' is not <namespace>/<name> or "
                            + "<namespace>/*");
                }
            }
            String reason = entry.path("reason").asText("").strip();
            if (reason.isEmpty()) {
                problems.add(at + ": reason is missing (say why the exception exists, for the review)");
            }
            Instant expires = expires(entry.get("expires"), at, problems);
            out.add(new RequestException(name, functions,
                    strings(match.get("namespaces"), "match.namespaces", at, problems),
                    strings(match.get("names"), "match.names", at, problems),
                    selector(match.get("namespace_labels"), "match.namespace_labels", at, problems),
                    selector(match.get("object_labels"), "match.object_labels", at, problems),
                    strings(match.get("users"), "match.users", at, problems),
                    strings(match.get("groups"), "match.groups", at, problems),
                    accounts, Set.copyOf(operations), reason, expires));
        }
        if (!problems.isEmpty()) {
            // One line per problem, each a sentence as the plan prints it.
            throw new IllegalArgumentException(String.join("\n", problems.stream().map(p -> p + ".").toList()));
        }
        return new RequestExceptions(out);
    }

    /** Every exception in the file, in the file's order. */
    public List<RequestException> all() {
        return exceptions;
    }

    /** Every exception in the file for {@code function}, in the file's order. */
    public List<RequestException> forFunction(String function) {
        return exceptions.stream().filter(e -> e.functions().contains(function)).toList();
    }

    /**
     * The first exception for {@code function} that describes {@code request} and has not expired at {@code now}.
     * Exceptions a function cannot decide (namespace labels) never match here.
     */
    public Optional<RequestException> exceptedBy(String function, AdmissionRequest request, Instant now) {
        for (RequestException e : exceptions) {
            if (e.functions().contains(function) && e.appliesInFunction() && !e.expiredAt(now) && e.matches(request)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return exceptions.isEmpty();
    }

    private static List<String> unknown(JsonNode node, Set<String> known, String prefix) {
        List<String> extra = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String field = it.next();
            if (!known.contains(field)) {
                extra.add(prefix + field);
            }
        }
        return extra;
    }

    private static Set<String> strings(JsonNode node, String field, String at, List<String> problems) {
        if (node == null || node.isNull()) {
            return Set.of();
        }
        if (!node.isArray()) {
            problems.add(at + ": " + field + ": expected a list of strings");
            return Set.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (JsonNode v : node) {
            if (!v.isValueNode() || v.asText().isEmpty()) {
                problems.add(at + ": " + field + ": expected non-empty strings");
            } else {
                out.add(v.asText());
            }
        }
        return Set.copyOf(out);
    }

    private static LabelSelector selector(JsonNode node, String field, String at, List<String> problems) {
        try {
            return LabelSelector.parse(node);
        } catch (IllegalArgumentException e) {
            problems.add(at + ": " + field + ": " + e.getMessage());
            return LabelSelector.everything();
        }
    }

    /** RFC 3339, or a date alone (an unquoted YAML date) meaning midnight UTC, as yamldecode gives it to the plan. */
    private static Instant expires(JsonNode node, String at, List<String> problems) {
        String hint = " (e.g. 2026-12-31T00:00:00Z; every exception ends)";
        if (node == null || node.isNull()) {
            problems.add(at + ": expires is missing" + hint);
            return Instant.EPOCH;
        }
        String text = node.asText().strip();
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            problems.add(at + ": expires \"" + text + "\" is not an RFC 3339 timestamp" + hint);
            return Instant.EPOCH;
        }
    }
}
