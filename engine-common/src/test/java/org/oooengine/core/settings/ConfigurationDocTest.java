package org.oooengine.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md is what the registry writes: a setting changed in code is changed in the page. */
class ConfigurationDocTest {
    @Test
    void theCommittedPageIsTheRegistrys() throws IOException {
        Path page = Path.of("..", "docs", "configuration.md");
        assertEquals(ConfigurationDoc.markdown(), Files.exists(page) ? Files.readString(page) : "",
                "docs/configuration.md differs from the settings registry; from the repository's root, regenerate it: "
                        + ConfigurationDoc.REGENERATE);
    }
}
