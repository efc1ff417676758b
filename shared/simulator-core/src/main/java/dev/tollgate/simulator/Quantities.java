package dev.tollgate.simulator;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.tollgate.admission.GroupVersionKind;

/**
 * Resource quantities as the API server holds them. It decodes an object into its Go type, where every quantity is
 * a {@code resource.Quantity}, and encodes it back for the webhooks and the store, so webhooks see quantities in
 * canonical form ({@code 0.5} becomes {@code 500m}, {@code 1024Mi} becomes {@code 1Gi}, a number becomes a string)
 * and a malformed one stops the request. The rules are apimachinery's {@code pkg/api/resource/quantity.go}
 * ({@code ParseQuantity}, {@code parseQuantityString}, {@code CanonicalizeBytes}) and {@code amount.go}
 * ({@code AsCanonicalBytes}, {@code AsCanonicalBase1024Bytes}); the fields are those of {@code k8s.io/api/core/v1}
 * types.go that are quantities, in the kinds the simulator decodes ({@link Defaulting#KINDS}) and in
 * PersistentVolumeClaim, ResourceQuota and LimitRange.
 */
public final class Quantities {

    /** apimachinery's ErrFormatWrong. */
    static final String FORMAT_WRONG = "quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    /** apimachinery's ErrSuffix. */
    static final String SUFFIX_WRONG = "unable to parse quantity's suffix";

    private static final BigInteger MAX_INT64 = BigInteger.valueOf(Long.MAX_VALUE);
    private static final String[] DECIMAL_SUFFIXES = { "n", "u", "m", "", "k", "M", "G", "T", "P", "E" };
    private static final String[] BINARY_SUFFIXES = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
    private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers",
            "ephemeralContainers");

    /** A quantity that does not parse, with apimachinery's message. */
    public static final class InvalidQuantity extends IllegalArgumentException {
        InvalidQuantity(String message) {
            super(message);
        }
    }

    private enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    private Quantities() {
    }

    /** The canonical form of a quantity written as text, e.g. {@code 0.5} gives {@code 500m}. */
    public static String canonical(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            throw new InvalidQuantity(FORMAT_WRONG);
        }
        int pos = 0;
        int end = s.length();
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            pos++;
        }
        int numStart = pos;
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        String num = s.substring(numStart, pos);
        String denom = "";
        if (pos < end && s.charAt(pos) == '.') {
            int denomStart = ++pos;
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
            }
            denom = s.substring(denomStart, pos);
        }
        // The suffix: letters of [eEinumkKMGTP], an optional sign, digits; anything after is a format error.
        int suffixStart = pos;
        while (pos < end && "eEinumkKMGTP".indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            throw new InvalidQuantity(FORMAT_WRONG);
        }
        String suffix = s.substring(suffixStart);
        num = num.replaceFirst("^0+", "");
        num = num.isEmpty() ? "0" : num;
        BigDecimal amount = new BigDecimal(num + (denom.isEmpty() ? "" : "." + denom));
        Format format;
        int exponent;
        int decimalIndex = java.util.Arrays.asList(DECIMAL_SUFFIXES).indexOf(suffix);
        int binaryIndex = suffix.isEmpty() ? -1 : java.util.Arrays.asList(BINARY_SUFFIXES).indexOf(suffix);
        if (decimalIndex >= 0) {
            format = Format.DECIMAL_SI;
            exponent = 3 * (decimalIndex - 3);
            amount = amount.scaleByPowerOfTen(exponent);
        } else if (binaryIndex >= 0) {
            format = Format.BINARY_SI;
            exponent = 10 * binaryIndex;
            amount = amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exponent)));
        } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            format = Format.DECIMAL_EXPONENT;
            try {
                exponent = Integer.parseInt(suffix.substring(1));
            } catch (NumberFormatException e) {
                throw new InvalidQuantity(SUFFIX_WRONG);
            }
            amount = amount.scaleByPowerOfTen(exponent);
        } else {
            throw new InvalidQuantity(SUFFIX_WRONG);
        }
        if (keepsItsText(num, denom, format, exponent)) {
            return s;
        }
        // Non-zero amounts round up (away from zero) to a nano unit; binary amounts are capped at the int64 range.
        if (amount.signum() != 0 && amount.scale() > 9) {
            amount = amount.setScale(9, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI && amount.compareTo(new BigDecimal(MAX_INT64)) > 0) {
            amount = new BigDecimal(MAX_INT64);
        }
        if (negative) {
            amount = amount.negate();
        }
        return canonicalize(amount, format);
    }

    /**
     * ParseQuantity's fast path keeps the text it was given when that text already looks canonical: an int64 amount
     * whose digits do not end in 000 or start with 0, at a scale that is a multiple of 3 (decimal), or an odd-ish
     * multiple of a binary suffix (the low three bits not all zero). So {@code +1} and {@code 01} stay as written.
     *
     * @param num the integer digits without leading zeros ({@code 0} when none)
     */
    private static boolean keepsItsText(String num, String denom, Format format, int exponent) {
        String shifted = num + denom;
        if (format == Format.BINARY_SI) {
            int precision = 15 - num.length() - (int) (exponent * 3f / 10) - 1;
            if (!denom.isEmpty() || precision < 0) {
                return false;
            }
            long value = Long.parseLong(shifted);
            boolean fits = BigInteger.valueOf(value).shiftLeft(exponent).bitLength() < 64;
            return fits && (value & 0x07) != 0;
        }
        int scale = exponent - denom.length();
        if (18 - shifted.length() < 0 || scale < -9) {
            return false;
        }
        return scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
    }

    /** CanonicalizeBytes: the number and suffix the API server writes. */
    private static String canonicalize(BigDecimal amount, Format format) {
        if (amount.signum() == 0) {
            return "0";
        }
        if (format == Format.BINARY_SI) {
            // Small or fractional binary amounts are written in decimal, so nothing is rounded.
            boolean small = amount.abs().compareTo(BigDecimal.valueOf(1024)) < 0;
            boolean whole = amount.stripTrailingZeros().scale() <= 0;
            if (!small && whole) {
                BigInteger value = amount.toBigIntegerExact();
                int exponent = 0;
                BigInteger k = BigInteger.valueOf(1024);
                while (value.mod(k).signum() == 0 && exponent < BINARY_SUFFIXES.length - 1) {
                    value = value.divide(k);
                    exponent++;
                }
                return value + BINARY_SUFFIXES[exponent];
            }
            format = Format.DECIMAL_SI;
        }
        BigDecimal stripped = amount.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        int exponent = -stripped.scale();
        int down = Math.floorMod(exponent, 3);
        mantissa = mantissa.multiply(BigInteger.TEN.pow(down));
        exponent -= down;
        if (format == Format.DECIMAL_EXPONENT) {
            return mantissa + (exponent == 0 ? "" : "e" + exponent);
        }
        int index = exponent / 3 + 3;
        // Beyond E, apimachinery has no suffix and writes none.
        return mantissa + (index >= 0 && index < DECIMAL_SUFFIXES.length ? DECIMAL_SUFFIXES[index] : "");
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * Rewrites the object's quantities in canonical form, as decoding and encoding it does.
     *
     * @return the quantities that changed, as path, old and new value (e.g.
     *         {@code spec.containers[0].resources.limits.cpu: 0.5 -> 500m})
     * @throws InvalidQuantity for a quantity that does not parse (the API server refuses the object)
     */
    public static List<String> canonicalize(GroupVersionKind gvk, ObjectNode object) {
        List<String> changed = new ArrayList<>();
        if (object == null || !(gvk.group().isEmpty() || gvk.group().equals("apps") || gvk.group().equals("batch"))
                || !gvk.version().equals("v1")) {
            return changed;
        }
        JsonNode spec = object.path("spec");
        switch (gvk.kind()) {
            case "Pod" -> podSpec(spec, "spec", changed);
            case "PodTemplate" -> podSpec(object.path("template").path("spec"), "template.spec", changed);
            case "ReplicationController", "Deployment", "DaemonSet", "ReplicaSet", "Job" ->
                podSpec(spec.path("template").path("spec"), "spec.template.spec", changed);
            case "StatefulSet" -> {
                podSpec(spec.path("template").path("spec"), "spec.template.spec", changed);
                int i = 0;
                for (JsonNode claim : spec.path("volumeClaimTemplates")) {
                    requirements(claim.path("spec").path("resources"),
                            "spec.volumeClaimTemplates[" + i++ + "].spec.resources", changed);
                }
            }
            case "CronJob" -> podSpec(spec.path("jobTemplate").path("spec").path("template").path("spec"),
                    "spec.jobTemplate.spec.template.spec", changed);
            case "PersistentVolumeClaim" -> requirements(spec.path("resources"), "spec.resources", changed);
            case "ResourceQuota" -> list(spec.path("hard"), "spec.hard", changed);
            case "LimitRange" -> {
                int i = 0;
                for (JsonNode item : spec.path("limits")) {
                    String at = "spec.limits[" + i++ + "]";
                    for (String field : List.of("max", "min", "default", "defaultRequest", "maxLimitRequestRatio")) {
                        list(item.path(field), at + "." + field, changed);
                    }
                }
            }
            default -> {
            }
        }
        return changed;
    }

    private static void podSpec(JsonNode spec, String at, List<String> changed) {
        if (!spec.isObject()) {
            return;
        }
        for (String list : CONTAINER_LISTS) {
            int i = 0;
            for (JsonNode c : spec.path(list)) {
                String cat = at + "." + list + "[" + i++ + "]";
                requirements(c.path("resources"), cat + ".resources", changed);
                int j = 0;
                for (JsonNode env : c.path("env")) {
                    always(env.path("valueFrom").path("resourceFieldRef"), "divisor",
                            cat + ".env[" + j++ + "].valueFrom.resourceFieldRef", changed);
                }
            }
        }
        list(spec.path("overhead"), at + ".overhead", changed);
        requirements(spec.path("resources"), at + ".resources", changed);
        int v = 0;
        for (JsonNode volume : spec.path("volumes")) {
            String vat = at + ".volumes[" + v++ + "]";
            one(volume.path("emptyDir"), "sizeLimit", vat + ".emptyDir", changed);
            requirements(volume.path("ephemeral").path("volumeClaimTemplate").path("spec").path("resources"),
                    vat + ".ephemeral.volumeClaimTemplate.spec.resources", changed);
            downwardApiItems(volume.path("downwardAPI").path("items"), vat + ".downwardAPI.items", changed);
            int s = 0;
            for (JsonNode source : volume.path("projected").path("sources")) {
                downwardApiItems(source.path("downwardAPI").path("items"),
                        vat + ".projected.sources[" + s++ + "].downwardAPI.items", changed);
            }
        }
    }

    private static void downwardApiItems(JsonNode items, String at, List<String> changed) {
        int i = 0;
        for (JsonNode item : items) {
            always(item.path("resourceFieldRef"), "divisor", at + "[" + i++ + "].resourceFieldRef", changed);
        }
    }

    /** ResourceRequirements (and VolumeResourceRequirements): limits and requests. */
    private static void requirements(JsonNode resources, String at, List<String> changed) {
        list(resources.path("limits"), at + ".limits", changed);
        list(resources.path("requests"), at + ".requests", changed);
    }

    /** A ResourceList: every value a quantity. */
    private static void list(JsonNode map, String at, List<String> changed) {
        if (!map.isObject()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext();) {
            names.add(it.next().getKey());
        }
        for (String name : names) {
            if (map.get(name).isNull()) {
                ((ObjectNode) map).put(name, "0"); // a null value in a map decodes as a zero quantity
                changed.add(at + "." + name + ": null -> 0");
            } else {
                one(map, name, at, changed);
            }
        }
    }

    /** A quantity field that is not a pointer (resourceFieldRef.divisor): written even when unset, as 0. */
    private static void always(JsonNode parent, String field, String at, List<String> changed) {
        if (parent.isObject() && (!parent.has(field) || parent.get(field).isNull())) {
            ((ObjectNode) parent).put(field, "0");
            changed.add(at + "." + field + ": unset -> 0");
            return;
        }
        one(parent, field, at, changed);
    }

    private static void one(JsonNode parent, String field, String at, List<String> changed) {
        if (!parent.isObject() || !parent.has(field)) {
            return;
        }
        JsonNode value = parent.get(field);
        String text;
        if (value.isNull()) {
            return; // a null pointer stays unset
        } else if (value.isTextual()) {
            text = value.asText();
        } else if (value.isNumber()) {
            text = value.decimalValue().toPlainString();
        } else {
            throw new InvalidQuantity(FORMAT_WRONG);
        }
        String canonical = canonical(text);
        if (!value.isTextual() || !canonical.equals(value.asText())) {
            ((ObjectNode) parent).put(field, canonical);
            changed.add(at + "." + field + ": " + value + " -> " + canonical);
        }
    }
}
