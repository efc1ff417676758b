package dev.tollgate.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.HandlerResult;
import dev.tollgate.admission.ReviewKind;
import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.admission.conversion.ConversionChecks;
import dev.tollgate.admission.conversion.ConversionCodec;
import dev.tollgate.admission.conversion.ConversionHandler;
import dev.tollgate.admission.conversion.ConversionPolicy;
import dev.tollgate.admission.conversion.ConversionReview;

/**
 * What the API server does when a custom resource is read in another version than it is stored in, on local
 * manifests (k8s.io/apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go): objects already in the
 * desired version are not sent; the others go to the conversion webhook in one ConversionReview per kind (as for a
 * list), and the answer must pass the API server's checks ({@link ConversionChecks}) or the whole conversion fails.
 */
public final class Conversions {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Strings that look like numbers stay quoted ("8.4" is a version, not a float). */
    private static final ObjectMapper YAML = new ObjectMapper(
            com.fasterxml.jackson.dataformat.yaml.YAMLFactory.builder()
                    .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                    .build());

    /** Where a review goes: the policy in this process, or a URL. */
    public interface Target {
        /** An HTTP-like answer. */
        WebhookClient.Answer send(byte[] review) throws WebhookClient.CallFailure;

        String describe();
    }

    /** The policy serving function {@code name}, called through the same handler a function uses, without HTTP. */
    public static Target inProcess(String name, ConversionPolicy policy) {
        ConversionHandler handler = new ConversionHandler(new ConversionCodec());
        return new Target() {
            public WebhookClient.Answer send(byte[] review) {
                HandlerResult<ConversionReview> r = handler.handle(review, name, policy);
                return new WebhookClient.Answer(r.status(), r.body());
            }

            public String describe() {
                return name + " (in-process)";
            }
        };
    }

    /** A conversion webhook at {@code url}, called with the simulator's HTTP client. */
    public static Target remote(String url, String caBundleBase64, int timeoutSeconds, WebhookClient client) {
        ObjectNode entry = JSON.createObjectNode();
        entry.put("name", "conversion webhook");
        entry.putObject("clientConfig").put("url", url).put("caBundle", caBundleBase64);
        entry.put("timeoutSeconds", timeoutSeconds);
        Webhook webhook = new Webhook("conversion", false, 0, entry);
        return new Target() {
            public WebhookClient.Answer send(byte[] review) throws WebhookClient.CallFailure {
                return client.post(webhook, review);
            }

            public String describe() {
                return url;
            }
        };
    }

    /** One manifest's outcome. */
    public record Outcome(InputManifest input, String status, JsonNode converted, String message, double millis) {
        public static final String CONVERTED = "converted";
        public static final String UNCHANGED = "unchanged";
        public static final String FAILED = "failed";
    }

    /** One review sent: what went, what came back, and what the API server would say about it. */
    public record Exchange(String kind, JsonNode request, JsonNode response, List<String> problems, double millis) {
    }

    /** Everything one run did. */
    public record Run(List<Outcome> outcomes, List<Exchange> exchanges) {
        public boolean allConverted() {
            return outcomes.stream().noneMatch(o -> o.status().equals(Outcome.FAILED));
        }
    }

    private Conversions() {
    }

    /**
     * Converts every manifest to {@code desiredApiVersion} through {@code target}.
     *
     * @throws InputException when a manifest is not in the desired version's group
     */
    public static Run convert(List<InputManifest> inputs, String desiredApiVersion, ReviewVersion reviewVersion,
            Target target) {
        if (!ConversionCodec.isGroupVersion(desiredApiVersion)) {
            throw new InputException("--to must be <group>/<version> of a custom resource, got '" + desiredApiVersion
                    + "'");
        }
        String group = desiredApiVersion.substring(0, desiredApiVersion.indexOf('/'));
        List<String> foreign = new ArrayList<>();
        for (InputManifest m : inputs) {
            if (!m.apiVersion().startsWith(group + "/")) {
                foreign.add(m.source() + ": " + m.kind() + " " + m.apiVersion() + " is not in group " + group);
            }
        }
        if (!foreign.isEmpty()) {
            throw InputException.of("only custom resources of the --to group convert", foreign);
        }
        Map<String, List<InputManifest>> byKind = new LinkedHashMap<>();
        Map<InputManifest, Outcome> outcomes = new LinkedHashMap<>();
        for (InputManifest m : inputs) {
            outcomes.put(m, null);
            if (m.apiVersion().equals(desiredApiVersion)) {
                outcomes.put(m, new Outcome(m, Outcome.UNCHANGED, m.object(), "already " + desiredApiVersion
                        + ": the API server does not call the webhook", 0));
            } else {
                byKind.computeIfAbsent(m.kind(), k -> new ArrayList<>()).add(m);
            }
        }
        List<Exchange> exchanges = new ArrayList<>();
        for (var e : byKind.entrySet()) {
            exchange(e.getKey(), e.getValue(), desiredApiVersion, reviewVersion, target, outcomes, exchanges);
        }
        return new Run(List.copyOf(outcomes.values()), exchanges);
    }

    private static void exchange(String kind, List<InputManifest> batch, String desired, ReviewVersion version,
            Target target, Map<InputManifest, Outcome> outcomes, List<Exchange> exchanges) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", ReviewKind.CONVERSION.apiVersion(version)).put("kind", ReviewKind.CONVERSION.kind());
        ObjectNode request = review.putObject("request");
        request.put("uid", UUID.randomUUID().toString()).put("desiredAPIVersion", desired);
        ArrayNode objects = request.putArray("objects");
        batch.forEach(m -> objects.add(m.object()));
        // As the API server names it in its errors: "<group>/<version>, Kind=<kind>" of the objects sent.
        String gvk = batch.get(0).apiVersion() + ", Kind=" + kind;
        long start = System.nanoTime();
        WebhookClient.Answer answer;
        try {
            answer = target.send(JSON.writeValueAsBytes(review));
        } catch (WebhookClient.CallFailure e) {
            fail(batch, outcomes, "conversion webhook for " + gvk + " failed: " + e.getMessage(), millis(start));
            exchanges.add(new Exchange(kind, review, null, List.of(e.getMessage()), millis(start)));
            return;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        double ms = millis(start);
        if (!ClientErrors.isAnswer(answer.status())) {
            // The API server's conversion client is client-go's REST client too (apiextensions-apiserver
            // pkg/apiserver/conversion/webhook_converter.go): its error for the answer, e.g. a Status's message.
            String problem = ClientErrors.forResponse(answer.status(), answer.contentType(), answer.body());
            fail(batch, outcomes, "conversion webhook for " + gvk + " failed: " + problem, ms);
            exchanges.add(new Exchange(kind, review, parseOrNull(answer.body()), List.of(problem), ms));
            return;
        }
        // The conversion client decodes with the same codec as the admission client (AnswerDecoding).
        AnswerDecoding.Decoded decoded = AnswerDecoding.decode(answer.status(), answer.contentType(), answer.body());
        if (decoded.error() != null) {
            fail(batch, outcomes, "conversion webhook for " + gvk + " failed: " + decoded.error(), ms);
            exchanges.add(new Exchange(kind, review, null, List.of(decoded.error()), ms));
            return;
        }
        JsonNode response = decoded.body();
        ConversionChecks.Result checked = ConversionChecks.check(review, response);
        exchanges.add(new Exchange(kind, review, response, checked.problems(), ms));
        if (!checked.problems().isEmpty()) {
            fail(batch, outcomes, "conversion webhook for " + gvk + " returned an answer the API server refuses: "
                    + String.join("; ", checked.problems()), ms);
        } else if (!checked.success()) {
            fail(batch, outcomes, "conversion webhook for " + gvk + " failed: " + checked.message(), ms);
        } else {
            for (int i = 0; i < batch.size(); i++) {
                outcomes.put(batch.get(i), new Outcome(batch.get(i), Outcome.CONVERTED,
                        checked.convertedObjects().get(i), "", ms));
            }
        }
    }

    private static void fail(List<InputManifest> batch, Map<InputManifest, Outcome> outcomes, String message,
            double ms) {
        batch.forEach(m -> outcomes.put(m, new Outcome(m, Outcome.FAILED, null, message, ms)));
    }

    private static JsonNode parseOrNull(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static double millis(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    /** The report for people: one block per manifest, then a summary line. */
    public static String text(Run run, String desired, String via) {
        StringBuilder out = new StringBuilder();
        int converted = 0;
        int unchanged = 0;
        int failed = 0;
        for (Outcome o : run.outcomes()) {
            InputManifest m = o.input();
            String ns = m.namespace().isEmpty() ? "" : m.namespace() + "/";
            out.append("== ").append(m.source()).append(": ").append(m.kind()).append(' ').append(ns)
                    .append(m.name()).append(" (").append(m.apiVersion()).append(" -> ").append(desired)
                    .append(")\n");
            switch (o.status()) {
                case Outcome.CONVERTED -> {
                    converted++;
                    out.append(String.format("CONVERTED by %s in %.1f ms%n", via, o.millis()));
                    out.append(indent(yaml(o.converted()))).append('\n');
                }
                case Outcome.UNCHANGED -> {
                    unchanged++;
                    out.append("UNCHANGED: ").append(o.message()).append("\n\n");
                }
                default -> {
                    failed++;
                    out.append("FAILED: ").append(o.message()).append("\n\n");
                }
            }
        }
        out.append(run.outcomes().size()).append(" objects: ").append(converted).append(" converted, ")
                .append(unchanged).append(" unchanged, ").append(failed).append(" failed\n");
        return out.toString();
    }

    /** The report for machines: every object's outcome, and every review sent with its answer and problems. */
    public static String json(Run run) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode objects = root.putArray("objects");
        for (Outcome o : run.outcomes()) {
            ObjectNode n = objects.addObject();
            n.put("source", o.input().source()).put("status", o.status());
            if (o.converted() != null) {
                n.set("object", o.converted());
            }
            if (!o.message().isEmpty()) {
                n.put("message", o.message());
            }
        }
        ArrayNode reviews = root.putArray("reviews");
        for (Exchange x : run.exchanges()) {
            ObjectNode n = reviews.addObject();
            n.put("kind", x.kind()).put("latencyMs", Math.round(x.millis() * 10) / 10.0);
            n.set("request", x.request());
            n.set("response", x.response());
            x.problems().forEach(n.putArray("problems")::add);
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String yaml(JsonNode node) {
        try {
            return YAML.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String indent(String yaml) {
        StringBuilder out = new StringBuilder();
        for (String line : yaml.stripTrailing().split("\n")) {
            out.append("  ").append(line).append('\n');
        }
        return out.toString();
    }
}
