package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration files: documents, Lists, sources in messages, mounted-ConfigMap directories. */
class ConfigFilesTest {

    @Test
    void documentsAndListsAreReadInOrderWithTheirSource() {
        List<ConfigFiles.Document> docs = ConfigFiles.parse("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: a}
                ---
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: v1, kind: Namespace, metadata: {name: b}}
                - {apiVersion: v1, kind: Namespace, metadata: {name: c}}
                ---
                """, "ns.yaml");
        assertEquals(List.of("a", "b", "c"), docs.stream().map(ConfigFiles.Document::name).toList());
        assertEquals(List.of("ns.yaml#1", "ns.yaml#2.items[0]", "ns.yaml#2.items[1]"),
                docs.stream().map(ConfigFiles.Document::source).toList());
        assertEquals("Namespace", docs.get(1).kind());
        assertEquals("v1", docs.get(1).apiVersion());
    }

    @Test
    void badInputIsRefusedNamingTheFileAndDocument() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfigFiles.parse("a: [unclosed", "bad.yaml"));
        assertTrue(e.getMessage().startsWith("bad.yaml: not valid YAML: "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ConfigFiles.parse("kind: X\n---\n- 1\n", "x.yaml"));
        assertEquals("x.yaml#2: each document must be a Kubernetes object (a mapping)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ConfigFiles.parse("kind: PodList\nitems: {}\n", "l.yaml"));
        assertEquals("l.yaml#1: items of a PodList must be an array", e.getMessage());
    }

    @Test
    void aDirectoryContributesItsYamlAndJsonFilesSortedSkippingDotEntries(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("b.yaml"), "{apiVersion: v1, kind: Namespace, metadata: {name: b}}");
        Files.writeString(dir.resolve("a.json"), "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\","
                + " \"metadata\": {\"name\": \"a\"}}");
        Files.writeString(dir.resolve(".hidden.yaml"), "{apiVersion: v1, kind: Namespace, metadata: {name: h}}");
        Files.writeString(dir.resolve("notes.txt"), "not configuration");
        List<ConfigFiles.Document> docs = ConfigFiles.read(List.of(dir));
        assertEquals(List.of("a", "b"), docs.stream().map(ConfigFiles.Document::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfigFiles.read(List.of(dir.resolve("missing"))));
        assertEquals("configuration path " + dir.resolve("missing") + " does not exist", e.getMessage());
    }
}
