package dev.tollgate.cel.internal;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * RE2 patterns compiled with re2j, the errors worded as Go's regexp package words them (Go src/regexp/syntax/parse.go:
 * {@code error parsing regexp: <code>: `<expr>`}). re2j is a port of that parser and words its errors the same, but
 * for a closing parenthesis without an opening one, which Go reports as {@code ErrUnexpectedParen} ("unexpected )"
 * with the whole expression) and re2j as an internal "stack underflow".
 */
public final class GoRegexp {

    private GoRegexp() {
    }

    /** Compiles {@code re}, or throws IllegalArgumentException with Go's message. */
    public static Pattern compile(String re) {
        try {
            return Pattern.compile(re);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(message(re, e), e);
        }
    }

    /** Go's {@code regexp.Compile} error for a pattern re2j refused. */
    public static String message(String re, PatternSyntaxException e) {
        if (e.getDescription().equals("regexp/syntax: internal error") && "stack underflow".equals(e.getPattern())) {
            return "error parsing regexp: unexpected ): `" + re + "`";
        }
        return "error parsing regexp: " + e.getDescription() + ": `" + e.getPattern() + "`";
    }
}
