package dev.tollgate.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's encoding/json syntax errors (scanner.go), as the API server's webhook client reports them. */
class GoJsonSyntaxTest {

    private static String error(String json) {
        return GoJsonSyntax.error(json.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{|unexpected end of JSON input",
        "{\"apiVersion\":|unexpected end of JSON input",
        "{\"a\":1,}|invalid character '}' looking for beginning of object key string",
        "{'a':1}|invalid character '\\'' looking for beginning of object key string",
        "{\"a\" 1}|invalid character '1' after object key",
        "{\"a\":1 \"b\":2}|invalid character '\"' after object key:value pair",
        "{\"a\":[1 2]}|invalid character '2' after array element",
        "{\"a\":}|invalid character '}' looking for beginning of value",
        "{\"a\":tru}|invalid character '}' in literal true (expecting 'e')",
        "{\"a\":nul|invalid character ' ' in literal null (expecting 'l')",
        "{\"a\":-}|invalid character '}' in numeric literal",
        "{\"a\":1.}|invalid character '}' after decimal point in numeric literal",
        "{\"a\":1e}|invalid character '}' in exponent of numeric literal",
        "{\"a\":01}|invalid character '1' after object key:value pair",
        "{\"a\":\"\\q\"}|invalid character 'q' in string escape code",
        "{\"a\":\"\\u12G4\"}|invalid character 'G' in \\u hexadecimal character escape",
        "{} x|invalid character 'x' after top-level value",
        "{}{}|invalid character '{' after top-level value",
        "{\"a\":\\}|invalid character '\\\\' looking for beginning of value",
    })
    void syntaxErrorsInGosWords(String json, String message) {
        assertEquals(message, error(json));
    }

    @Test
    void controlCharactersAndNonAsciiBytesAreQuotedAsGoQuotesThem() {
        assertEquals("invalid character '\\x01' in string literal", error("{\"a\":\"\u0001\"}"));
        assertEquals("invalid character '\\n' in string literal", error("{\"a\":\"\n\"}"));
        assertEquals("'Ã'", GoJsonSyntax.quoteChar(0xC3));
        assertEquals("'\\u00a0'", GoJsonSyntax.quoteChar(0xA0));
    }

    @Test
    void validJsonHasNoError() {
        assertNull(error(" {\"a\":[1,-2.5e-3,0,1E+2,true,false,null,{\"b\":\"\\u00e9\\n\",\"c\":{}}],\"d\":[]} \n"));
    }

    @Test
    void nestingPastGosLimitIsRefused() {
        assertEquals("invalid character '[' exceeded max depth", error("{\"a\":" + "[".repeat(10000)));
    }
}
