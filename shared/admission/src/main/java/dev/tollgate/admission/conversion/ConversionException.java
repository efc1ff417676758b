package dev.tollgate.admission.conversion;

/**
 * A policy cannot convert an object (for example a version it does not know, or a value the target version cannot
 * hold even in an annotation). The whole review fails with this message, which the API server shows to the client.
 */
public class ConversionException extends Exception {

    public ConversionException(String message) {
        super(message, null, false, false);
    }
}
