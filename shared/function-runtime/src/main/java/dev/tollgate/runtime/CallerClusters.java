package dev.tollgate.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.ConfigurationException;

import dev.tollgate.admission.AdmissionRequest;
import dev.tollgate.admission.match.LabelSyntax;

/**
 * Which credential belongs to which cluster, from {@link CallerConfig} (per-cluster keys, the clusters-dir's files and
 * the clusters-json value, all read here): the token sources and client-certificate names of every cluster. A
 * credential belongs to one cluster (a token or name given to two is a startup error), and every cluster must have
 * each kind of credential that is checked, since every check runs on every call: a cluster without one could never
 * call.
 */
final class CallerClusters {

    static final String PATH_TOKENS_SUFFIX = ".path-tokens";
    static final String BEARER_TOKENS_SUFFIX = ".bearer-tokens";
    static final String CLUSTERS_DIR = "tollgate.auth.clusters-dir";
    static final String CLUSTERS_JSON = "tollgate.auth.clusters-json";
    /** The keys of one cluster in {@value #CLUSTERS_JSON}: the file suffixes of {@value #CLUSTERS_DIR}, no dot. */
    static final String PATH_TOKENS_KEY = PATH_TOKENS_SUFFIX.substring(1);
    static final String BEARER_TOKENS_KEY = BEARER_TOKENS_SUFFIX.substring(1);

    final List<TokenSet.Source> bearer;
    final List<TokenSet.Source> pathTokens;
    /** Client-certificate CN to cluster; empty when no cluster names certificates. */
    final Map<String, String> certificateNames;

    private CallerClusters(List<TokenSet.Source> bearer, List<TokenSet.Source> pathTokens,
            Map<String, String> certificateNames) {
        this.bearer = bearer;
        this.pathTokens = pathTokens;
        this.certificateNames = certificateNames;
    }

    /**
     * @throws ConfigurationException naming the key, file or cluster that is wrong
     */
    static CallerClusters read(CallerConfig config) {
        List<TokenSet.Source> bearer = new ArrayList<>();
        List<TokenSet.Source> pathTokens = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>();
        String def = AdmissionRequest.DEFAULT_CLUSTER;
        bearer.add(source(def, config.bearer()));
        pathTokens.add(source(def, config.pathToken()));
        addNames(names, def, config.mtls().allowedNames().orElse(List.of()), "tollgate.auth.mtls.allowed-names");
        config.clusters().forEach((cluster, credentials) -> {
            String at = "tollgate.auth.clusters." + cluster;
            requireClusterName(cluster, at);
            bearer.add(source(cluster, credentials.bearer()));
            pathTokens.add(source(cluster, credentials.pathToken()));
            addNames(names, cluster, credentials.mtls().allowedNames().orElse(List.of()),
                    at + ".mtls.allowed-names");
        });
        config.clustersDir().ifPresent(dir -> {
            for (Path file : files(dir)) {
                String fileName = file.getFileName().toString();
                boolean path = fileName.endsWith(PATH_TOKENS_SUFFIX);
                String cluster = fileName.substring(0, fileName.length()
                        - (path ? PATH_TOKENS_SUFFIX : BEARER_TOKENS_SUFFIX).length());
                requireClusterName(cluster, CLUSTERS_DIR + ": " + file);
                (path ? pathTokens : bearer).add(new TokenSet.Source(cluster, List.of(), List.of(file)));
            }
        });
        config.clustersJson().filter(json -> !json.isBlank()).ifPresent(json -> {
            List<TokenSet.Source> jsonBearer = new ArrayList<>();
            List<TokenSet.Source> jsonPath = new ArrayList<>();
            readJson(json, jsonBearer, jsonPath);
            bearer.addAll(jsonBearer);
            pathTokens.addAll(jsonPath);
        });
        return new CallerClusters(List.copyOf(bearer), List.copyOf(pathTokens), Map.copyOf(names));
    }

    /**
     * Every cluster with any credential must have each checked kind: {@code checked} names the kinds in force
     * (bearer, path-token, and mtls when certificates are named) and the clusters that have each.
     *
     * @throws ConfigurationException naming the cluster and the kind it lacks
     */
    static void requireEveryKind(Map<String, Set<String>> clustersByKind) {
        Set<String> everyCluster = new LinkedHashSet<>();
        clustersByKind.values().forEach(everyCluster::addAll);
        List<String> missing = new ArrayList<>();
        clustersByKind.forEach((kind, clusters) -> everyCluster.stream().filter(c -> !clusters.contains(c))
                .forEach(c -> missing.add("cluster " + c + " has no " + kind)));
        if (!missing.isEmpty()) {
            throw new ConfigurationException(String.join("; ", missing) + ", but every call must pass every "
                    + "configured check (" + String.join(", ", clustersByKind.keySet()) + "), so it could never "
                    + "call: give it one, or leave that check to no cluster (shared/function-runtime/README.md, "
                    + "\"Who may call\")");
        }
    }

    private static void requireClusterName(String cluster, String where) {
        if (!LabelSyntax.isDnsLabel(cluster)) {
            throw new ConfigurationException(where + ": '" + cluster + "' is not a cluster name (a DNS label: "
                    + "lower-case letters, digits and '-', as in tollgate.clusters.*)");
        }
    }

    /**
     * {@value #CLUSTERS_JSON}: cluster => {@code path-tokens} / {@code bearer-tokens} => tokens, the clusters-dir's
     * files as one value where no file can be mounted (AWS Lambda). Its tokens are checked here, by the same
     * {@link TokenSet} that serves them, so that a problem names the key (a token of two clusters among them).
     *
     * @throws ConfigurationException one line naming the key and the cluster, or the position of bad JSON; never a
     *                                token
     */
    private static void readJson(String json, List<TokenSet.Source> bearer, List<TokenSet.Source> pathTokens) {
        JsonNode root;
        try {
            // A cluster given twice would otherwise lose its first tokens without a word.
            root = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).readTree(json);
        } catch (JsonProcessingException e) {
            // Only the position: Jackson's message can quote the text around it, which is a token.
            JsonLocation at = e.getLocation();
            throw new ConfigurationException(CLUSTERS_JSON + ": not JSON, or a key given twice"
                    + (at == null ? "" : ", at line " + at.getLineNr() + ", column " + at.getColumnNr())
                    + " (expected {\"<cluster>\":{\"" + PATH_TOKENS_KEY + "\":[...],\"" + BEARER_TOKENS_KEY
                    + "\":[...]}})");
        }
        if (root == null || !root.isObject()) {
            throw new ConfigurationException(CLUSTERS_JSON + ": not a JSON object of clusters (expected "
                    + "{\"<cluster>\":{\"" + PATH_TOKENS_KEY + "\":[...],\"" + BEARER_TOKENS_KEY + "\":[...]}})");
        }
        root.fields().forEachRemaining(entry -> {
            String cluster = entry.getKey();
            requireClusterName(cluster, CLUSTERS_JSON);
            JsonNode kinds = entry.getValue();
            if (!kinds.isObject()) {
                throw new ConfigurationException(CLUSTERS_JSON + ": cluster " + cluster + " is not an object of \""
                        + PATH_TOKENS_KEY + "\" and \"" + BEARER_TOKENS_KEY + "\"");
            }
            kinds.fields().forEachRemaining(kind -> {
                boolean path = kind.getKey().equals(PATH_TOKENS_KEY);
                if (!path && !kind.getKey().equals(BEARER_TOKENS_KEY)) {
                    throw new ConfigurationException(CLUSTERS_JSON + ": cluster " + cluster + ": unknown key '"
                            + kind.getKey() + "' (" + PATH_TOKENS_KEY + " or " + BEARER_TOKENS_KEY + ")");
                }
                List<String> values = new ArrayList<>();
                JsonNode tokens = kind.getValue();
                if (tokens.isArray()) {
                    tokens.forEach(t -> values.add(t.isTextual() ? t.textValue() : null));
                }
                if (!tokens.isArray() || values.contains(null)) {
                    throw new ConfigurationException(CLUSTERS_JSON + ": cluster " + cluster + ": " + kind.getKey()
                            + " is not an array of strings");
                }
                (path ? pathTokens : bearer).add(new TokenSet.Source(cluster, values, List.of()));
            });
        });
        try {
            new TokenSet("bearer token", TokenSet.TOKEN68, bearer);
            new TokenSet("path token", TokenSet.PATH_SAFE, pathTokens);
        } catch (IllegalStateException e) {
            throw new ConfigurationException(CLUSTERS_JSON + ": " + e.getMessage());
        }
    }

    private static TokenSet.Source source(String cluster, CallerConfig.Tokens tokens) {
        return new TokenSet.Source(cluster, tokens.values().orElse(List.of()), tokens.files().orElse(List.of()));
    }

    private static void addNames(Map<String, String> names, String cluster, List<String> allowed, String key) {
        for (String name : allowed) {
            String before = names.putIfAbsent(name.strip(), cluster);
            if (before != null && !before.equals(cluster)) {
                throw new ConfigurationException(key + ": client certificate name '" + name.strip() + "' is also "
                        + "cluster " + before + "'s: a credential belongs to one cluster");
            }
        }
    }

    private static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ConfigurationException(CLUSTERS_DIR + ": " + dir + " is not a directory");
        }
        try (Stream<Path> files = Files.list(dir)) {
            // A mounted Secret also holds ..data and ..<timestamp> entries: names starting with '.' are skipped.
            return files.filter(f -> {
                String n = f.getFileName().toString();
                return !n.startsWith(".") && (n.endsWith(PATH_TOKENS_SUFFIX) || n.endsWith(BEARER_TOKENS_SUFFIX));
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(CLUSTERS_DIR + ": " + dir + ": " + e.getMessage(), e);
        }
    }
}
