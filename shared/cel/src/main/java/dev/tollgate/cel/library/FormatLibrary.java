package dev.tollgate.cel.library;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.tollgate.cel.internal.KubeLibrary;

/**
 * Kubernetes' format library: {@code format.named(name)} (an optional format), {@code format.dns1123Label()} and the
 * other named formats, and {@code <format>.validate(s)}: {@code optional.none()} when valid, else the list of
 * problems, worded as apimachinery's validation does.
 */
public final class FormatLibrary implements KubeLibrary {

    public static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

    /** A named format and its validator (problems, empty when valid). */
    public record NamedFormat(String name, Function<String, List<String>> validator) {
        @Override
        public boolean equals(Object o) {
            return o instanceof NamedFormat f && f.name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }
    }

    private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1123_LABEL = Pattern.compile(LABEL);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final String QUALIFIED = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED);
    private static final Pattern LABEL_VALUE = Pattern.compile("(" + QUALIFIED + ")?");
    private static final Pattern UUID = Pattern.compile(
            "(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}");

    static final Map<String, NamedFormat> FORMATS = new LinkedHashMap<>();

    /** govalidator's Base64 pattern (asaskevich/govalidator patterns.go), which kube-openapi's "byte" format uses. */
    private static final Pattern BASE64 = Pattern.compile(
            "(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})");

    static {
        add("dns1123Label", FormatLibrary::dns1123Label);
        add("dns1123Subdomain", FormatLibrary::dns1123Subdomain);
        add("dns1035Label", FormatLibrary::dns1035Label);
        add("qualifiedName", FormatLibrary::qualifiedName);
        add("dns1123LabelPrefix", s -> dns1123Label(maskTrailingDash(s)));
        add("dns1123SubdomainPrefix", s -> dns1123Subdomain(maskTrailingDash(s)));
        add("dns1035LabelPrefix", s -> dns1035Label(maskTrailingDash(s)));
        add("labelValue", FormatLibrary::labelValue);
        add("uri", s -> Url.isValid(s) ? List.of() : List.of("invalid URI"));
        add("uuid", s -> UUID.matcher(s).matches() ? List.of() : List.of("does not match the UUID format"));
        // kube-openapi strfmt "byte" is govalidator.IsBase64: padded standard base64, at least one 4-character group
        add("byte", s -> BASE64.matcher(s).matches() ? List.of() : List.of("invalid base64"));
        add("date", s -> {
            try {
                java.time.LocalDate.parse(s, java.time.format.DateTimeFormatter.ISO_LOCAL_DATE);
                return List.of();
            } catch (java.time.format.DateTimeParseException e) {
                return List.of("invalid date");
            }
        });
        add("datetime", s -> {
            try {
                java.time.OffsetDateTime.parse(s, java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME);
                return List.of();
            } catch (java.time.format.DateTimeParseException e) {
                return List.of("invalid datetime");
            }
        });
    }

    private static void add(String name, Function<String, List<String>> validator) {
        FORMATS.put(name, new NamedFormat(name, validator));
    }

    @Override
    public List<CelFunctionDecl> functions() {
        List<CelFunctionDecl> decls = new ArrayList<>();
        decls.add(newFunctionDeclaration("format.named",
                newGlobalOverload("format_named", OptionalType.create(FORMAT), SimpleType.STRING)));
        for (String name : FORMATS.keySet()) {
            decls.add(newFunctionDeclaration("format." + name, newGlobalOverload("format_" + name, FORMAT)));
        }
        decls.add(newFunctionDeclaration("validate", newMemberOverload("format_validate",
                OptionalType.create(ListType.create(SimpleType.STRING)), FORMAT, SimpleType.STRING)));
        return decls;
    }

    @Override
    public List<CelFunctionBinding> bindings() {
        List<CelFunctionBinding> b = new ArrayList<>();
        b.add(CelFunctionBinding.from("format_named", String.class, n -> Optional.ofNullable(FORMATS.get(n))));
        for (NamedFormat f : FORMATS.values()) {
            b.add(CelFunctionBinding.from("format_" + f.name(), List.of(), args -> f));
        }
        b.add(CelFunctionBinding.from("format_validate", NamedFormat.class, String.class, (f, s) -> {
            List<String> problems = f.validator().apply(s);
            return problems.isEmpty() ? Optional.empty() : Optional.of(problems);
        }));
        return b;
    }

    private static String maskTrailingDash(String s) {
        return s.length() > 1 && s.endsWith("-") ? s.substring(0, s.length() - 1) + "a" : s;
    }

    private static List<String> maxLen(String s, int max, List<String> errs) {
        if (s.length() > max) {
            errs.add(0, "must be no more than " + max + " characters");
        }
        return errs;
    }

    static List<String> dns1123Label(String s) {
        List<String> errs = new ArrayList<>();
        if (!DNS1123_LABEL.matcher(s).matches()) {
            errs.add("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must"
                    + " start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for"
                    + " validation is '" + LABEL + "')");
        }
        return maxLen(s, 63, errs);
    }

    static List<String> dns1123Subdomain(String s) {
        List<String> errs = new ArrayList<>();
        if (!DNS1123_SUBDOMAIN.matcher(s).matches()) {
            errs.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.',"
                    + " and must start and end with an alphanumeric character (e.g. 'example.com', regex used for"
                    + " validation is '" + DNS1123_SUBDOMAIN.pattern() + "')");
        }
        return maxLen(s, 253, errs);
    }

    static List<String> dns1035Label(String s) {
        List<String> errs = new ArrayList<>();
        if (!DNS1035_LABEL.matcher(s).matches()) {
            errs.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an"
                    + " alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123',"
                    + " regex used for validation is '" + DNS1035_LABEL.pattern() + "')");
        }
        return maxLen(s, 63, errs);
    }

    static List<String> qualifiedName(String s) {
        List<String> errs = new ArrayList<>();
        String[] parts = s.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                dns1123Subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
            }
        } else {
            errs.add("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and"
                    + " end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used"
                    + " for validation is '" + QUALIFIED + "') with an optional DNS subdomain prefix and '/' (e.g."
                    + " 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errs.add("name part must be no more than 63 characters");
        }
        if (!name.isEmpty() && !QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with"
                    + " an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
                    + " validation is '" + QUALIFIED + "')");
        }
        return errs;
    }

    static List<String> labelValue(String s) {
        List<String> errs = new ArrayList<>();
        if (!LABEL_VALUE.matcher(s).matches()) {
            errs.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.',"
                    + " and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or"
                    + " '12345', regex used for validation is '(" + QUALIFIED + ")?')");
        }
        return maxLen(s, 63, errs);
    }
}
