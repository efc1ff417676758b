package dev.tollgate.knative;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations the way Go's {@code time.ParseDuration} does ("30s", "1m30s", "1.5h", "0"), as Knative reads them. */
public final class GoDuration {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** @throws IllegalArgumentException when the text is not a Go duration */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        String s = text;
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        BigDecimal nanos = BigDecimal.ZERO;
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 30s, 5m, 1m30s)");
            }
            nanos = nanos.add(new BigDecimal(m.group(1).startsWith(".") ? "0" + m.group(1) : m.group(1))
                    .multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            at = m.end();
        }
        Duration d = Duration.ofNanos(nanos.longValue());
        return negative ? d.negated() : d;
    }
}
