package dev.tollgate.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.tollgate.testing.CapturedLog;

class TokenSetTest {

    static final String A = "aaaaaaaaaaaaaaaa-token-one";
    static final String B = "bbbbbbbbbbbbbbbb-token-two";
    static final String C = "cccccccccccccccc-token-three";

    @TempDir
    Path dir;

    @Test
    void acceptsExactlyTheConfiguredValues() {
        TokenSet set = new TokenSet("bearer token", TokenSet.TOKEN68, List.of(A, B), List.of());
        assertTrue(set.matches(A));
        assertTrue(set.matches(B));
        assertFalse(set.matches(A.substring(1)));
        assertFalse(set.matches(A + "x"));
        assertFalse(set.matches(""));
        assertFalse(set.matches(null));
    }

    @Test
    void refusesWeakOrMalformedTokensWithoutEchoingThem() {
        var e = assertThrows(IllegalStateException.class,
                () -> new TokenSet("path token", TokenSet.PATH_SAFE, List.of("short"), List.of()));
        assertTrue(e.getMessage().contains("shorter than 16"), e.getMessage());
        assertFalse(e.getMessage().contains("short\""));
        var e2 = assertThrows(IllegalStateException.class, () -> new TokenSet("path token", TokenSet.PATH_SAFE,
                List.of("has/a/slash/in/the/path/token"), List.of()));
        assertFalse(e2.getMessage().contains("has/a/slash"), "the secret is not echoed: " + e2.getMessage());
    }

    @Test
    void missingFileStopsStartup() {
        assertThrows(IllegalStateException.class, () -> new TokenSet("bearer token", TokenSet.TOKEN68, List.of(),
                List.of(dir.resolve("absent"))));
    }

    @Test
    void filesRotateOnReloadAndFailClosedWhenUnreadable() throws IOException {
        Path file = dir.resolve("tokens");
        Files.writeString(file, "# current\n" + A + "\n");
        TokenSet set = new TokenSet("bearer token", TokenSet.TOKEN68, List.of(), List.of(file));
        assertTrue(set.matches(A));
        assertFalse(set.reload(), "unchanged file");

        Files.writeString(file, A + "\n" + B + "\n"); // rotation: both accepted for a while
        assertTrue(set.reload());
        assertTrue(set.matches(A) && set.matches(B));

        Files.writeString(file, B + "\n"); // the old one is retired
        assertTrue(set.reload());
        assertFalse(set.matches(A));
        assertTrue(set.matches(B));

        try (CapturedLog log = CapturedLog.of(TokenSet.class)) {
            Files.writeString(file, "not ok\n"); // a bad line: the file contributes nothing, and says so
            assertTrue(set.reload());
            assertFalse(set.matches(B));
            assertEquals(0, set.size());
            log.await(Level.SEVERE, "bearer token file " + file + " (cluster default) cannot be used, its tokens are no longer accepted: "
                    + "line 1 is shorter than 16 characters");
        }

        Files.delete(file);
        set.reload();
        assertEquals(0, set.size());
        Files.writeString(file, A + "\n");
        assertTrue(set.reload());
        assertTrue(set.matches(A));
    }

    @Test
    void eachTokenAnswersItsClusterAndOneClustersFileChangesNoOther() throws IOException {
        Path east = dir.resolve("east.path-tokens");
        Path west = dir.resolve("west.path-tokens");
        Files.writeString(east, A + "\n");
        Files.writeString(west, B + "\n");
        TokenSet set = new TokenSet("path token", TokenSet.PATH_SAFE, List.of(
                new TokenSet.Source("east", List.of(), List.of(east)),
                new TokenSet.Source("west", List.of(), List.of(west)),
                new TokenSet.Source("north", List.of(C), List.of())));
        assertEquals("east", set.owner(A));
        assertEquals("west", set.owner(B));
        assertEquals("north", set.owner(C));
        assertNull(set.owner(A + "x"));
        assertEquals(List.of("east", "west", "north"), set.clusters());

        Files.writeString(east, ""); // east revoked
        assertTrue(set.reload());
        assertNull(set.owner(A));
        assertEquals("west", set.owner(B));

        try (CapturedLog log = CapturedLog.of(TokenSet.class)) {
            Files.writeString(east, A + "\n" + B + "\n"); // west's token in east's file: east's file is refused
            set.reload();
            log.await(Level.SEVERE, "path token file " + east + " (cluster east) cannot be used, its tokens are no "
                    + "longer accepted: line 2 is also a token of cluster west: a credential belongs to one cluster");
        }
        assertNull(set.owner(A));
        assertEquals("west", set.owner(B));
        Files.writeString(east, A + "\n");
        assertTrue(set.reload());
        assertEquals("east", set.owner(A));
    }

    @Test
    void bearerHeaderParsing() {
        assertEquals(A, CallerGate.bearerToken("Bearer " + A));
        assertEquals(A, CallerGate.bearerToken("bearer  " + A));
        assertEquals(null, CallerGate.bearerToken("Basic " + A));
        assertEquals(null, CallerGate.bearerToken("Bearer"));
        assertEquals(null, CallerGate.bearerToken(null));
    }
}
