package dev.tollgate.cel.library;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A URL as Kubernetes' CEL url library reads it (staging/src/k8s.io/apiserver/pkg/cel/library/urls.go): valid when
 * Go's url.ParseRequestURI accepts the whole string (an absolute URI or an absolute path; relative references such
 * as {@code ../x} are rejected, a '#' counts as part of the path or query); its parts are then read as url.Parse
 * reads them, without the {@code #fragment} (so {@code getQuery()} and {@code getEscapedPath()} never include it).
 */
public final class Url {

    final String raw;
    final String scheme;
    final String host;     // host[:port] as written, "" when none
    final String path;     // escaped path as written
    final String rawQuery; // after '?', "" when none

    private Url(String raw, String scheme, String host, String path, String rawQuery) {
        this.raw = raw;
        this.scheme = scheme;
        this.host = host;
        this.path = path;
        this.rawQuery = rawQuery;
    }

    public static Url parse(String s) {
        String why = problem(s);
        if (why != null) {
            throw new IllegalArgumentException("URL parse error during conversion from string: parse \"" + s + "\": "
                    + why);
        }
        int hash = s.indexOf('#');
        Url parts = build(hash >= 0 ? s.substring(0, hash) : s);
        return new Url(s, parts.scheme, parts.host, parts.path, parts.rawQuery);
    }

    public static boolean isValid(String s) {
        return problem(s) == null;
    }

    private static String problem(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return "net/url: invalid control character in URL";
            }
        }
        if (s.isEmpty()) {
            return "empty url";
        }
        Url u;
        try {
            u = build(s);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (u.scheme.isEmpty() && !u.path.startsWith("/")) {
            return "invalid URI for request";
        }
        if (!validEscapes(u.path)) {
            return "invalid URL escape";
        }
        return null;
    }

    private static Url build(String s) {
        String rest = s;
        String scheme = "";
        int colon = s.indexOf(':');
        if (colon > 0 && s.substring(0, colon).matches("[a-zA-Z][a-zA-Z0-9+.\\-]*")) {
            scheme = s.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
            rest = s.substring(colon + 1);
        } else if (colon == 0) {
            throw new IllegalArgumentException("missing protocol scheme");
        }
        String rawQuery = "";
        int q = rest.indexOf('?');
        if (q >= 0) {
            rawQuery = rest.substring(q + 1);
            rest = rest.substring(0, q);
        }
        String host = "";
        if (!scheme.isEmpty() && rest.startsWith("//") || scheme.isEmpty() && rest.startsWith("//")) {
            String authority = rest.substring(2);
            int slash = authority.indexOf('/');
            String path = slash >= 0 ? authority.substring(slash) : "";
            authority = slash >= 0 ? authority.substring(0, slash) : authority;
            int at = authority.lastIndexOf('@');
            host = at >= 0 ? authority.substring(at + 1) : authority;
            checkHost(host);
            return new Url(s, scheme, host, path, rawQuery);
        }
        return new Url(s, scheme, host, rest, rawQuery);
    }

    private static void checkHost(String host) {
        String port;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("missing ']' in host");
            }
            port = host.substring(close + 1);
            if (!port.isEmpty() && !port.startsWith(":")) {
                throw new IllegalArgumentException("invalid port \"" + port + "\" after host");
            }
        } else {
            int c = host.lastIndexOf(':');
            port = c >= 0 ? host.substring(c) : "";
            if (host.indexOf(':') != c) {
                throw new IllegalArgumentException("invalid port \"" + port + "\" after host");
            }
        }
        if (!port.isEmpty() && !port.substring(1).chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("invalid port \"" + port + "\" after host");
        }
    }

    private static boolean validEscapes(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '%') {
                if (i + 2 >= s.length() || Character.digit(s.charAt(i + 1), 16) < 0
                        || Character.digit(s.charAt(i + 2), 16) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    public String hostname() {
        if (host.startsWith("[")) {
            return host.substring(1, host.indexOf(']'));
        }
        int c = host.lastIndexOf(':');
        return c >= 0 ? host.substring(0, c) : host;
    }

    public String port() {
        String afterHost = host.startsWith("[") ? host.substring(host.indexOf(']') + 1) : host;
        int c = afterHost.lastIndexOf(':');
        return c >= 0 ? afterHost.substring(c + 1) : "";
    }

    /** The path, escaped: as written when that is a valid escaping, else with unsafe characters percent-encoded. */
    public String escapedPath() {
        StringBuilder sb = new StringBuilder();
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~!$&'()*+,;=:@/%".indexOf(c) >= 0)) {
                sb.append((char) c);
            } else {
                sb.append('%').append(String.format("%02X", c));
            }
        }
        return sb.toString();
    }

    /** The query as Go's url.Values: each key to its values in order; malformed pairs are dropped. */
    public Map<String, List<String>> query() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty() || pair.indexOf(';') >= 0) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = eq >= 0 ? pair.substring(0, eq) : pair;
            String v = eq >= 0 ? pair.substring(eq + 1) : "";
            String key = unescape(k);
            String value = unescape(v);
            if (key == null || value == null) {
                continue;
            }
            out.computeIfAbsent(key, x -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static String unescape(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Url u && u.raw.equals(raw);
    }

    @Override
    public int hashCode() {
        return raw.hashCode();
    }

    @Override
    public String toString() {
        return raw;
    }
}
