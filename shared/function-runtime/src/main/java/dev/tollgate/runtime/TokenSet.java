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
 * A set of accepted secret tokens, each belonging to one cluster, from literal values and from files that are re-read
 * on {@link #reload()} so tokens rotate without a restart (a file may hold the old and the new token during a
 * rotation). Which cluster a token belongs to is what {@link #owner} answers: the caller's cluster.
 *
 * <p>Only SHA-256 digests are kept, and a candidate is compared with every digest using
 * {@link MessageDigest#isEqual}, without an early exit, so neither the token's content nor its length, nor its
 * cluster, shows in the time taken. A file that cannot be read on reload contributes no tokens until it can (fail
 * closed), and says so in the log; so does a file that would give a token of another cluster to its own: one token,
 * one cluster. Each file is read on its own, so rewriting or removing one cluster's file touches no other cluster.
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

    /** One cluster's tokens: literal values and files. */
    record Source(String cluster, List<String> values, List<Path> files) {
        Source {
            values = List.copyOf(values);
            files = List.copyOf(files);
        }
    }

    /** An accepted token's digest and the cluster it belongs to. */
    private record Token(byte[] digest, String cluster) {
    }

    private final String what;
    private final Pattern syntax;
    private final List<Token> fixed;
    /** Every file, with the cluster it belongs to, in configuration order. */
    private final Map<Path, String> files = new LinkedHashMap<>();
    private final Map<Path, List<Token>> fromFiles = new LinkedHashMap<>();
    private final Map<Path, String> fileContent = new LinkedHashMap<>();
    /** The problem last logged for a file that cannot be used. */
    private final Map<Path, String> problems = new LinkedHashMap<>();
    private final List<String> clusters;
    private volatile List<Token> all;

    /** Tokens of the one cluster {@value dev.tollgate.admission.AdmissionRequest#DEFAULT_CLUSTER}. */
    TokenSet(String what, Pattern syntax, List<String> values, List<Path> files) {
        this(what, syntax, List.of(new Source(dev.tollgate.admission.AdmissionRequest.DEFAULT_CLUSTER, values,
                files)));
    }

    /**
     * @throws IllegalStateException when a value or file is invalid, a file cannot be read, or one token is given to
     *                               two clusters: at startup, a misconfigured credential must stop the function, not
     *                               open it (nor let one cluster pass as another)
     */
    TokenSet(String what, Pattern syntax, List<Source> sources) {
        this.what = what;
        this.syntax = syntax;
        List<Token> digests = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Source source : sources) {
            if (source.values().isEmpty() && source.files().isEmpty()) {
                continue;
            }
            if (!names.contains(source.cluster())) {
                names.add(source.cluster());
            }
            for (int i = 0; i < source.values().size(); i++) {
                String v = source.values().get(i).strip();
                String problem = problem(v);
                if (problem != null) {
                    throw new IllegalStateException(what + " value #" + (i + 1) + " of cluster " + source.cluster()
                            + " " + problem);
                }
                Token token = new Token(digest(v), source.cluster());
                String other = ownerIn(digests, token);
                if (other != null && !other.equals(source.cluster())) {
                    throw new IllegalStateException(what + " value #" + (i + 1) + " of cluster " + source.cluster()
                            + " is also a token of cluster " + other + ": a credential belongs to one cluster");
                }
                digests.add(token);
            }
            for (Path file : source.files()) {
                String before = files.putIfAbsent(file, source.cluster());
                if (before != null && !before.equals(source.cluster())) {
                    throw new IllegalStateException(what + " file " + file + " is given to clusters " + before
                            + " and " + source.cluster() + ": a credential belongs to one cluster");
                }
            }
        }
        this.fixed = List.copyOf(digests);
        this.clusters = List.copyOf(names);
        for (Path file : files.keySet()) {
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

    /** The clusters that have a token source, in configuration order. */
    List<String> clusters() {
        return clusters;
    }

    /** How many tokens are accepted right now. */
    int size() {
        return all.size();
    }

    /** Whether {@code candidate} is one of the accepted tokens, in time independent of which one or how close. */
    boolean matches(String candidate) {
        return owner(candidate) != null;
    }

    /**
     * The cluster {@code candidate} belongs to, or null when it is no accepted token; in time independent of which
     * token, or cluster, it is.
     */
    String owner(String candidate) {
        if (candidate == null) {
            return null;
        }
        byte[] d = digest(candidate);
        String found = null;
        for (Token token : all) {
            boolean equal = MessageDigest.isEqual(d, token.digest());
            found = equal ? token.cluster() : found;
        }
        return found;
    }

    /** Re-reads the files; true when the accepted set changed. Never throws: problems are logged, fail closed. */
    synchronized boolean reload() {
        boolean changed = false;
        for (Path file : files.keySet()) {
            try {
                changed |= load(file);
                problems.remove(file);
            } catch (IOException | IllegalArgumentException e) {
                // Said once per problem, not at every reload while it lasts.
                if (!String.valueOf(e.getMessage()).equals(problems.put(file, String.valueOf(e.getMessage())))) {
                    LOG.errorf("%s file %s (cluster %s) cannot be used, its tokens are no longer accepted: %s", what,
                            file, files.get(file), e.getMessage());
                }
                changed |= fromFiles.get(file) == null || !fromFiles.get(file).isEmpty();
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

    /**
     * Reads one file into its cluster's tokens; true when its content changed.
     *
     * @throws IllegalArgumentException for an invalid line, or a token another cluster holds (one token, one cluster)
     */
    private boolean load(Path file) throws IOException {
        String content = Files.readString(file, StandardCharsets.UTF_8);
        if (content.equals(fileContent.get(file))) {
            return false;
        }
        String cluster = files.get(file);
        List<Token> digests = new ArrayList<>();
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
            Token token = new Token(digest(line), cluster);
            String other = otherOwner(file, token);
            if (other != null) {
                throw new IllegalArgumentException("line " + (i + 1) + " is also a token of cluster " + other
                        + ": a credential belongs to one cluster");
            }
            digests.add(token);
        }
        if (digests.isEmpty()) {
            LOG.warnf("%s file %s (cluster %s) holds no token", what, file, cluster);
        }
        fromFiles.put(file, List.copyOf(digests));
        fileContent.put(file, content);
        return true;
    }

    /** The other cluster that holds {@code token} (in a value, or another file as last read), or null. */
    private String otherOwner(Path file, Token token) {
        String owner = ownerIn(fixed == null ? List.of() : fixed, token);
        if (owner != null && !owner.equals(token.cluster())) {
            return owner;
        }
        for (Map.Entry<Path, List<Token>> e : fromFiles.entrySet()) {
            if (!e.getKey().equals(file)) {
                owner = ownerIn(e.getValue(), token);
                if (owner != null && !owner.equals(token.cluster())) {
                    return owner;
                }
            }
        }
        return null;
    }

    private static String ownerIn(List<Token> tokens, Token token) {
        for (Token t : tokens) {
            if (MessageDigest.isEqual(t.digest(), token.digest())) {
                return t.cluster();
            }
        }
        return null;
    }

    private void publish() {
        List<Token> out = new ArrayList<>(fixed);
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
