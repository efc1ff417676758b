package dev.tollgate.knative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ImageRefTest {

    @Test
    void movesRegistryAndTag() {
        ImageRef ref = ImageRef.parse("ghcr.io/tollgate/require-labels:0.1.0-SNAPSHOT");
        assertEquals("registry.example.com:5000/platform/require-labels:1.2.3",
                ref.withRegistry("registry.example.com:5000/platform/").withTag("1.2.3").toString());
    }

    @Test
    void registryPortIsNotATag() {
        ImageRef ref = ImageRef.parse("localhost:5000/require-labels");
        assertEquals("localhost:5000/require-labels", ref.repository());
        assertEquals(null, ref.tag());
    }

    @Test
    void newTagDropsThePinnedDigest() {
        ImageRef ref = ImageRef.parse("ghcr.io/tollgate/x:1@sha256:abc");
        assertEquals("sha256:abc", ref.digest());
        assertEquals("ghcr.io/tollgate/x:2", ref.withTag("2").toString());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> ImageRef.parse(""));
        assertThrows(IllegalArgumentException.class, () -> ImageRef.parse("x:"));
        assertThrows(IllegalArgumentException.class, () -> ImageRef.parse("x:1").withTag("a/b"));
    }
}
