package org.oooengine.core.sql.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/sql-reference.md is what the function registry writes: the page and the engine cannot disagree. */
class FunctionReferenceDocTest {
    private static final Path PAGE = Path.of("..", "docs", "sql-reference.md");

    @Test
    void theCommittedPageIsTheRegistrys() throws IOException {
        assertEquals(FunctionReferenceDoc.markdown(), Files.exists(PAGE) ? Files.readString(PAGE) : "",
                "docs/sql-reference.md differs from the function registry; from the repository's root, regenerate it: "
                        + FunctionReferenceDoc.REGENERATE);
    }

    @Test
    void thePageListsEveryRegisteredFunctionWithASignatureAndAnExample() throws IOException {
        String page = Files.readString(PAGE);
        for (FunctionInfo f : Functions.all()) {
            for (FunctionInfo.Signature s : f.signatures()) {
                assertTrue(page.contains("`" + s.call().replace("|", "\\|") + "`"), f.name() + ": " + s.call());
            }
            for (FunctionInfo.Example e : f.examples()) {
                assertTrue(page.contains("`" + e.sql() + "` → `" + e.result() + "`"), f.name() + ": " + e.sql());
            }
            for (String alias : f.aliases()) {
                assertTrue(page.contains("`" + alias + "`"), f.name() + ": " + alias);
            }
        }
    }
}
