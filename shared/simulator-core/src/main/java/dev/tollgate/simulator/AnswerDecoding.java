package dev.tollgate.simulator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * How the API server's webhook client reads the body of a 200-206 answer, and its words when it cannot. The client
 * is client-go's REST client with the codec factory of apiserver {@code pkg/util/webhook/client.go}; the steps, in
 * its order:
 *
 * <ul>
 * <li>an empty body: {@code 0-length response with status code: <code> and content type: <type>}, the type being
 * the answer's Content-Type or the client's {@code application/json} (client-go {@code rest/request.go},
 * {@code Result.Into} and {@code transformResponse});</li>
 * <li>a body whose first non-space byte is <code>{</code> is JSON to the codec's recognizer (apimachinery
 * {@code runtime/serializer/recognizer/recognizer.go}, {@code util/yaml} {@code IsJSONBuffer}): Go's JSON syntax
 * rules apply ({@link GoJsonSyntax}), then the apiVersion and kind are read as strings
 * ({@code runtime/serializer/json/meta.go}: {@code couldn't get version/kind; json parse error: ...});</li>
 * <li>any other body goes to the YAML serializer, which turns it into JSON first: a scalar or a list then cannot
 * give an apiVersion and kind ({@code json: cannot unmarshal string into Go value of type struct { ... }}), and a
 * YAML mapping is read like a JSON object (so a webhook answering YAML is understood, as by the API server).</li>
 * </ul>
 *
 * Not reproduced word for word: a body that is not even YAML, for which the text after
 * {@code error converting YAML to JSON: yaml: } is SnakeYAML's, not go-yaml's.
 */
final class AnswerDecoding {

    /** The client's own content type, named when the answer has none (apiserver util/webhook/client.go). */
    static final String CLIENT_CONTENT_TYPE = "application/json";
    /** reflect's name for the struct apimachinery's SimpleMetaFactory.Interpret reads apiVersion and kind into. */
    private static final String FIND_KIND_STRUCT = "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
            + "Kind string \"json:\\\"kind,omitempty\\\"\" }";
    private static final String PARSE_ERROR = "couldn't get version/kind; json parse error: ";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The decoded body, or the client's error for it. */
    record Decoded(JsonNode body, String error) {
        static Decoded failed(String error) {
            return new Decoded(null, error);
        }
    }

    private AnswerDecoding() {
    }

    static Decoded decode(int status, String contentType, byte[] body) {
        if (body.length == 0) {
            String type = contentType == null || contentType.isEmpty() ? CLIENT_CONTENT_TYPE : contentType;
            return Decoded.failed("0-length response with status code: " + status + " and content type: " + type);
        }
        return looksLikeJson(body) ? json(body) : yaml(body);
    }

    /** util/yaml IsJSONBuffer: the first byte after leading white space is an opening brace. */
    private static boolean looksLikeJson(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && text.charAt(i) == '{';
    }

    private static Decoded json(byte[] body) {
        String syntax = GoJsonSyntax.error(body);
        if (syntax != null) {
            return Decoded.failed(PARSE_ERROR + syntax);
        }
        JsonNode node;
        try {
            // Go replaces invalid UTF-8 rather than refusing it; so does decoding to a String first.
            node = JSON.readTree(new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Decoded.failed(PARSE_ERROR + e.getMessage());
        }
        return kindFields(node);
    }

    private static Decoded yaml(byte[] body) {
        JsonNode node;
        try {
            node = YAML.readTree(body);
        } catch (IOException e) {
            String problem = e instanceof com.fasterxml.jackson.core.JsonProcessingException p
                    ? p.getOriginalMessage() : e.getMessage();
            return Decoded.failed("error converting YAML to JSON: yaml: " + problem.lines().findFirst().orElse(""));
        }
        if (node == null || node.isMissingNode() || node.isNull()) {
            // null decodes into nothing: the review stays empty, and the response checks say what is missing.
            return new Decoded(JsonNodeFactory.instance.objectNode(), null);
        }
        if (!node.isObject()) {
            return Decoded.failed(PARSE_ERROR + "json: cannot unmarshal " + goKind(node) + " into Go value of type "
                    + FIND_KIND_STRUCT);
        }
        return kindFields(node);
    }

    /** SimpleMetaFactory.Interpret: apiVersion and kind, when present, must be JSON strings (or null). */
    private static Decoded kindFields(JsonNode node) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode value = field.getValue();
            // encoding/json matches field names case-insensitively, and the first error is the one reported.
            boolean kindField = field.getKey().equalsIgnoreCase("apiVersion") || field.getKey().equalsIgnoreCase("kind");
            if (kindField && !value.isTextual() && !value.isNull()) {
                String name = field.getKey().equalsIgnoreCase("kind") ? "kind" : "apiVersion";
                return Decoded.failed(PARSE_ERROR + "json: cannot unmarshal " + goKind(value)
                        + " into Go struct field ." + name + " of type string");
            }
        }
        return new Decoded(node, null);
    }

    /** encoding/json's name for a JSON value's type in an UnmarshalTypeError. */
    private static String goKind(JsonNode node) {
        if (node.isTextual()) {
            return "string";
        }
        if (node.isNumber()) {
            return "number";
        }
        if (node.isBoolean()) {
            return "bool";
        }
        return node.isArray() ? "array" : "object";
    }
}
