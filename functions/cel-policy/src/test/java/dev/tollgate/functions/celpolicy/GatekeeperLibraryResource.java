package dev.tollgate.functions.celpolicy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.tollgate.testing.PathTokenResource;

/**
 * The packaged cel-policy behind a path token, serving the whole gatekeeper-library (every template, one constraint of
 * each kind and name: {@link GatekeeperLibraryFixture}); the examples when the fixtures are absent (the test then says
 * SKIPPED).
 */
public class GatekeeperLibraryResource extends PathTokenResource {

    @Override
    public Map<String, String> start() {
        Map<String, String> all = new LinkedHashMap<>(super.start());
        Path library = GatekeeperLibraryFixture.library();
        String config = library == null ? "examples" : GatekeeperLibraryFixture.configuration(library).stream()
                .map(Path::toString).collect(Collectors.joining(","));
        all.put("tollgate.cel-policy.config", config);
        return all;
    }
}
