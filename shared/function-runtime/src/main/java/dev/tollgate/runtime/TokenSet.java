package dev.tollgate.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

/**
 * A set of accepted secret tokens, from literal values and from files that are re-read on {@link #reload()} so
 * tokens rotate without a restart (a file may hold the old and the new token during a rotation).
 *
 * <p>Only SHA-256 digests are kept, and a candidate is compared with every digest using
 * {@link MessageDigest#isEqual}, without an early exit, so neither the token's content nor its length shows in the
 * time taken. A file that cannot be read on reload contributes no tokens until it can (fail closed), and says so in
 * the log.
 */
final class TokenSet {

    private static final Logger LOG = Logger.getLogger(TokenSet.class);

    // One per thread: MessageDigest.getInstance looks the provider up on every call, half of the caller check's time.
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    });

    /** Shortest accepted token: a guessable token would make the check pointless. */
    static final int MIN_LENGTH = 16;
    static final int MAX_LENGTH = 4096;

    /** Path tokens: URL-unreserved characters only, so no encoding can make two spellings of one token. */
    static final Pattern PATH_SAFE = Pattern.compile("[A-Za-z0-9._~-]+");
    /** Bearer tokens: the token68 syntax of RFC 7235. */
    static final Pattern TOKEN68 = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

    private final String what;
    private final Pattern syntax;
    private final List<byte[]> fixed;
    private final List<Path> files;
    private final Map<Path, List<byte[]>> fromFiles = new LinkedHashMap<>();
    private final Map<Path, String> fileContent = new LinkedHashMap<>();
    private volatile List<byte[]> all;

    /**
     * @throws IllegalStateException when a value or file is invalid or a file cannot be read: at startup, a
     *                               misconfigured credential must stop the function, not open it
     */
    TokenSet(String what, Pattern syntax, List<String> values, List<Path> files) {
        this.what = what;
        this.syntax = syntax;
        List<byte[]> digests = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i).strip();
            String problem = problem(v);
            if (problem != null) {
                throw new IllegalStateException(what + " value #" + (i + 1) + " " + problem);
            }
            digests.add(digest(v));
        }
        this.fixed = List.copyOf(digests);
        this.files = List.copyOf(files);
        for (Path file : files) {
            try {
                load(file);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException(what + " file " + file + ": " + e.getMessage(), e);
            }
        }
        publish();
    }

    /** True when any token source is configured (even if a file is momentarily empty). */
    boolean configured() {
        return !fixed.isEmpty() || !files.isEmpty();
    }

    /** How many tokens are accepted right now. */
    int size() {
        return all.size();
    }

    /** Whether {@code candidate} is one of the accepted tokens, in time independent of which one or how close. */
    boolean matches(String candidate) {
        if (candidate == null) {
            return false;
        }
        byte[] d = digest(candidate);
        boolean found = false;
        for (byte[] token : all) {
            found |= MessageDigest.isEqual(d, token);
        }
        return found;
    }

    /** Re-reads the files; true when the accepted set changed. Never throws: problems are logged, fail closed. */
    synchronized boolean reload() {
        boolean changed = false;
        for (Path file : files) {
            try {
                changed |= load(file);
            } catch (IOException | IllegalArgumentException e) {
                if (fromFiles.get(file) == null || !fromFiles.get(file).isEmpty()) {
                    LOG.errorf("%s file %s cannot be used, its tokens are no longer accepted: %s", what, file,
                            e.getMessage());
                    changed = true;
                }
                fromFiles.put(file, List.of());
                fileContent.remove(file);
            }
        }
        if (changed) {
            publish();
            LOG.infof("%s files reloaded: %d token(s) accepted", what, all.size());
        }
        return changed;
    }

    private boolean load(Path file) throws IOException {
        String content = Files.readString(file, StandardCharsets.UTF_8);
        if (content.equals(fileContent.get(file))) {
            return false;
        }
        List<byte[]> digests = new ArrayList<>();
        String[] lines = content.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String problem = problem(line);
            if (problem != null) {
                throw new IllegalArgumentException("line " + (i + 1) + " " + problem);
            }
            digests.add(digest(line));
        }
        if (digests.isEmpty()) {
            LOG.warnf("%s file %s holds no token", what, file);
        }
        fromFiles.put(file, List.copyOf(digests));
        fileContent.put(file, content);
        return true;
    }

    private void publish() {
        List<byte[]> out = new ArrayList<>(fixed);
        fromFiles.values().forEach(out::addAll);
        all = List.copyOf(out);
    }

    /** What is wrong with a token, without echoing it (it is a secret); null when it is fine. */
    private String problem(String token) {
        if (token.length() < MIN_LENGTH) {
            return "is shorter than " + MIN_LENGTH + " characters";
        }
        if (token.length() > MAX_LENGTH) {
            return "is longer than " + MAX_LENGTH + " characters";
        }
        if (!syntax.matcher(token).matches()) {
            return "holds characters not allowed in a " + what + " (allowed: " + syntax.pattern() + ")";
        }
        return null;
    }

    static byte[] digest(String s) {
        MessageDigest sha256 = SHA256.get();
        sha256.reset();
        return sha256.digest(s.getBytes(StandardCharsets.UTF_8));
    }
}
