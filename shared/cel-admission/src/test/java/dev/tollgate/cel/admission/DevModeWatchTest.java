package dev.tollgate.cel.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * A function whose dev profile reads policy files ({@code %dev.tollgate.<function>.config}) has dev mode watch every
 * one of them ({@code %dev.quarkus.live-reload.watched-resources}), so editing one restarts it on the next request.
 * Quarkus watches absolute paths file by file (its patterns apply to resource folders only), hence the list.
 */
class DevModeWatchTest {

    private static final Pattern DEV_CONFIG = Pattern.compile("%dev\\.tollgate\\.[a-z0-9-]+\\.config");

    @Test
    void devModeWatchesEveryFileOfEachFunctionsDevConfiguration() throws IOException {
        Path functions = Path.of(System.getProperty("tollgate.root.dir")).resolve("functions");
        List<String> checked = new ArrayList<>();
        List<Path> dirs;
        try (var list = Files.list(functions)) {
            dirs = list.sorted().toList();
        }
        for (Path dir : dirs) {
            Path file = dir.resolve("src/main/resources/application.properties");
            if (!Files.isRegularFile(file)) {
                continue;
            }
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file)) {
                p.load(in);
            }
            for (String key : new TreeSet<>(p.stringPropertyNames())) {
                if (!DEV_CONFIG.matcher(key).matches()) {
                    continue;
                }
                Set<String> expected = new TreeSet<>();
                for (String entry : p.getProperty(key).split(",")) {
                    ConfigFiles.files(List.of(dir.resolve(entry.strip())))
                            .forEach(f -> expected.add("${user.dir}/" + dir.relativize(f)));
                }
                Set<String> watched = new TreeSet<>();
                Arrays.stream(p.getProperty("%dev.quarkus.live-reload.watched-resources", "").split(","))
                        .map(String::strip).filter(s -> !s.isEmpty()).forEach(watched::add);
                assertEquals(expected, watched, file + ": %dev.quarkus.live-reload.watched-resources");
                checked.add(dir.getFileName().toString());
            }
        }
        assertEquals(List.of("cel-mutate", "cel-policy"), checked, "the functions that read policy files in dev mode");
    }
}
