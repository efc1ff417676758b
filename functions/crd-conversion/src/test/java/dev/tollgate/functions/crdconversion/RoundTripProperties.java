package dev.tollgate.functions.crdconversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.ReviewVersion;
import dev.tollgate.testing.ConversionTester;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Generated Database objects in every version (schema-valid, with and without the fields an older version cannot
 * hold, names with ':' that v1alpha1's engine string cannot keep, arbitrary labels and annotations): a round trip
 * through any other version gives the object back exactly, and every conversion passes the API server's checks (the
 * tester re-checks each answer from its bytes) and the target version's schema.
 */
class RoundTripProperties {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final DatabaseConversion POLICY = new DatabaseConversion();

    @Property(tries = 400)
    void roundTripsThroughEveryOtherVersionAreLossless(@ForAll("databases") ObjectNode object,
            @ForAll("versions") String via, @ForAll("reviewVersions") ReviewVersion review) {
        ConversionTester.of(POLICY).version(review).assertLossless(object, "data.tollgate.dev/" + via);
    }

    @Property(tries = 300)
    void conversionsFitTheTargetSchema(@ForAll("databases") ObjectNode object, @ForAll("versions") String to) {
        JsonNode out = ConversionTester.of(POLICY).convert("data.tollgate.dev/" + to, object).assertConverted()
                .object(0);
        assertEquals(List.of(), Crd.problems(to, out), () -> "from " + object + "\nto " + out);
    }

    @Property(tries = 200)
    void aChainThroughAllVersionsComesBack(@ForAll("databases") ObjectNode object) {
        String start = object.path("apiVersion").asText();
        JsonNode back = ConversionTester.of(POLICY).convertThrough(object, "data.tollgate.dev/v1alpha1",
                "data.tollgate.dev/v1", "data.tollgate.dev/v1beta1", "data.tollgate.dev/v1alpha1", start);
        assertEquals(ConversionTester.normalized(object), back);
    }

    @Provide
    Arbitrary<String> versions() {
        return Arbitraries.of(DatabaseConversion.VERSIONS);
    }

    @Provide
    Arbitrary<ReviewVersion> reviewVersions() {
        return Arbitraries.of(ReviewVersion.class);
    }

    /**
     * Objects as a cluster holds them in each version: written directly in that version, or converted to it from a
     * v1 object (then carrying what it cannot hold in the annotation).
     */
    @Provide
    Arbitrary<ObjectNode> databases() {
        Arbitrary<ObjectNode> direct = Combinators.combine(versions(), metadata(), engines(), optionalSpecFields(),
                status()).as(RoundTripProperties::database);
        Arbitrary<ObjectNode> viaHub = Combinators.combine(direct.filter(o -> o.path("apiVersion").asText()
                .endsWith("/v1")), versions()).as((hub, to) -> ConversionTester.of(POLICY)
                        .convert("data.tollgate.dev/" + to, hub).assertConverted().object(0).deepCopy());
        return Arbitraries.oneOf(direct, viaHub.map(ObjectNode.class::cast));
    }

    private record Engine(String name, Optional<String> version) {
    }

    private record SpecFields(Optional<String> storage, Optional<Integer> replicas, Optional<String> tlsMode,
            Optional<Map<String, String>> parameters) {
    }

    private static ObjectNode database(String version, ObjectNode metadata, Engine engine, SpecFields fields,
            Optional<ObjectNode> status) {
        ObjectNode o = F.objectNode();
        o.put("apiVersion", "data.tollgate.dev/" + version);
        o.put("kind", "Database");
        ObjectNode md = metadata.deepCopy();
        if (!version.equals("v1")) {
            // the annotation is the conversion's own on older versions; a v1 object may carry anything
            md.path("annotations").isObject();
            if (md.get("annotations") instanceof ObjectNode a) {
                a.remove(DatabaseConversion.STASH);
            }
        }
        o.set("metadata", md);
        ObjectNode spec = o.putObject("spec");
        if (version.equals("v1alpha1")) {
            spec.put("engine", engine.name() + engine.version().map(v -> ":" + v).orElse(""));
        } else {
            ObjectNode e = spec.putObject("engine").put("name", engine.name());
            engine.version().ifPresent(v -> e.put("version", v));
        }
        fields.storage().ifPresent(s -> spec.put(version.equals("v1alpha1") ? "storageSize" : "storage", s));
        fields.replicas().ifPresent(r -> spec.put("replicas", r));
        if (version.equals("v1")) {
            fields.tlsMode().ifPresent(t -> spec.put("tlsMode", t));
        }
        fields.parameters().ifPresent(p -> {
            ObjectNode params = spec.putObject("parameters");
            p.forEach(params::put);
        });
        status.ifPresent(s -> o.set("status", s));
        return o;
    }

    private static Arbitrary<ObjectNode> metadata() {
        Arbitrary<String> names = Arbitraries.strings().withChars("abcdefgh0123-").ofMinLength(1).ofMaxLength(12)
                .filter(s -> Character.isLetterOrDigit(s.charAt(0)) && Character.isLetterOrDigit(s.charAt(s.length() - 1)));
        Arbitrary<String> labelKeys = Arbitraries.of("team", "app.kubernetes.io/name", "tier", "data.tollgate.dev/x");
        Arbitrary<String> labelValues = Arbitraries.strings().withChars("abcxyz019").ofMinLength(0).ofMaxLength(8);
        Arbitrary<String> annotationKeys = Arbitraries.of("note", "example.com/owner", "kubectl.kubernetes.io/"
                + "last-applied-configuration", DatabaseConversion.STASH);
        Arbitrary<String> annotationValues = Arbitraries.strings().ofMaxLength(40);
        return Combinators.combine(names, names, Arbitraries.longs().between(1, 99999),
                Arbitraries.maps(labelKeys, labelValues).ofMaxSize(3).optional(),
                Arbitraries.maps(annotationKeys, annotationValues).ofMaxSize(3).optional())
                .as((name, namespace, rv, labels, annotations) -> {
                    ObjectNode md = F.objectNode();
                    md.put("name", name).put("namespace", namespace).put("uid", "uid-" + name)
                            .put("resourceVersion", Long.toString(rv)).put("generation", rv % 7 + 1);
                    labels.ifPresent(l -> {
                        ObjectNode m = md.putObject("labels");
                        l.forEach(m::put);
                    });
                    annotations.ifPresent(a -> {
                        ObjectNode m = md.putObject("annotations");
                        a.forEach(m::put);
                    });
                    return md;
                });
    }

    private static Arbitrary<Engine> engines() {
        // ':' in a name is what v1alpha1's "name:version" cannot hold; empty names and versions are edge cases
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of("postgres", "mysql", "mariadb"),
                Arbitraries.strings().withChars("pgsql:-.").ofMaxLength(8));
        Arbitrary<Optional<String>> versions = Arbitraries.strings().withChars("0123456789.:-rc").ofMaxLength(7)
                .optional();
        return Combinators.combine(names, versions).as(Engine::new);
    }

    private static Arbitrary<SpecFields> optionalSpecFields() {
        return Combinators.combine(Arbitraries.of("1Gi", "20Gi", "500Mi").optional(),
                Arbitraries.integers().between(1, 9).optional(),
                Arbitraries.of("require", "disable").optional(),
                Arbitraries.maps(Arbitraries.of("max_connections", "shared_buffers", "wal_level"),
                        Arbitraries.strings().alpha().ofMaxLength(6)).ofMaxSize(2).optional())
                .as(SpecFields::new);
    }

    private static Arbitrary<Optional<ObjectNode>> status() {
        return Arbitraries.of("Ready", "Provisioning", "Failed").map(phase -> {
            ObjectNode s = F.objectNode();
            s.put("phase", phase).putObject("conditions").put("ready", phase.equals("Ready"));
            return s;
        }).optional();
    }
}
