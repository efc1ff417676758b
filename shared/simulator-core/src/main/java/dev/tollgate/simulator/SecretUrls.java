package dev.tollgate.simulator;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps secrets in webhook URLs out of what the simulator prints. The API server puts the whole URL into its call
 * error messages (so a path token reaches whoever made the request, and its log); the simulator words its messages
 * the same way but prints {@value #REDACTED} in place of: user info ({@code user:password@}), a query, and every path
 * segment that looks like a token, i.e. at least 16 characters from a URL-safe token alphabet ({@code A-Z a-z 0-9 _
 * -}, what Terraform's {@code path_tokens} accept) with at least one digit and one letter. Function names and their
 * sub-paths (letters and dashes) stay readable.
 */
public final class SecretUrls {

    public static final String REDACTED = "<redacted>";

    private static final Pattern URL = Pattern.compile("(?i)\\bhttps?://[^\\s\"'<>]+");
    private static final Pattern TOKEN = Pattern.compile("(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])"
            + "[A-Za-z0-9_-]{16,}");

    private SecretUrls() {
    }

    /** The URL with its secrets replaced; a string that is no URL comes back unchanged. */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int hostStart = scheme + 3;
        int pathStart = indexOfAny(url, hostStart, '/', '?', '#');
        String authority = url.substring(hostStart, pathStart < 0 ? url.length() : pathStart);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            authority = REDACTED + "@" + authority.substring(at + 1);
        }
        StringBuilder out = new StringBuilder(url.substring(0, hostStart)).append(authority);
        if (pathStart < 0) {
            return out.toString();
        }
        String rest = url.substring(pathStart);
        int query = indexOfAny(rest, 0, '?', '#');
        String path = query < 0 ? rest : rest.substring(0, query);
        String[] segments = path.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                out.append('/');
            }
            out.append(TOKEN.matcher(segments[i]).matches() ? REDACTED : segments[i]);
        }
        if (query >= 0) {
            String tail = rest.substring(query);
            // The API server's own "?timeout=<n>s" carries no secret; any other query is hidden.
            out.append(tail.matches("\\?timeout=\\d+s") ? tail : tail.charAt(0) + REDACTED);
        }
        return out.toString();
    }

    /** The text with every http(s) URL in it redacted. */
    public static String redactIn(String text) {
        if (text == null || !text.contains("://")) {
            return text;
        }
        Matcher m = URL.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(redact(m.group())));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static int indexOfAny(String s, int from, char... chars) {
        int best = -1;
        for (char c : chars) {
            int i = s.indexOf(c, from);
            if (i >= 0 && (best < 0 || i < best)) {
                best = i;
            }
        }
        return best;
    }
}
