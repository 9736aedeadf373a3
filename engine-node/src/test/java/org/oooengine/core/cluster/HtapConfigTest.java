package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.HtalPolicy;

/** The HTAP mode a node keeps on disk comes back whole, and a damaged file is refused naming it. */
class HtapConfigTest {
    @TempDir
    Path dir;

    @Test
    void aSavedModeComesBackAsItWasGiven() {
        assertEquals(Optional.empty(), HtapConfig.load(dir));
        HtapConfig given = new HtapConfig(HtapConfig.Mode.HTAL, Map.of(Role.OLTP, 2, Role.OLAP, 4, Role.LOG_SHIPPING, 1,
                Role.DISPATCH, 1), 0.5, Duration.ofSeconds(45), new HtalPolicy.Parameters(3, 0.9, 0.6, 8, 0.8, 0.1),
                Duration.ofMillis(500), true);
        given.save(dir);
        assertEquals(Optional.of(given), HtapConfig.load(dir));

        org.oooengine.core.wire.PayloadWriter w = new org.oooengine.core.wire.PayloadWriter(64);
        given.write(w);
        assertEquals(given, HtapConfig.read(new org.oooengine.core.wire.PayloadReader(w.toByteArray())), "on the wire");
    }

    @Test
    void aModeSavedBeforeTreesOnlyExistedReadsTheDeltaAsItDid() throws Exception {
        HtapConfig.DEFAULT.save(dir);
        Path file = dir.resolve(HtapConfig.FILE);
        Files.writeString(file, Files.readString(file).replaceAll(",\\s*\"treesOnly\"\\s*:\\s*false", ""));
        assertTrue(!Files.readString(file).contains("treesOnly"), Files.readString(file));
        assertEquals(Optional.of(HtapConfig.DEFAULT), HtapConfig.load(dir));
    }

    @Test
    void aDamagedOrImpossibleModeIsRefusedNamingTheFile() throws Exception {
        Path file = dir.resolve(HtapConfig.FILE);
        Files.writeString(file, "{\"mode\": \"HTAL\", \"slots\": {");
        UncheckedIOException cut = assertThrows(UncheckedIOException.class, () -> HtapConfig.load(dir));
        assertTrue(cut.getMessage().contains(file.toString()), cut.getMessage());

        HtapConfig.DEFAULT.save(dir);
        Files.writeString(file, Files.readString(file).replace("\"OLTP\" : 3", "\"OLTP\" : 0"));
        UncheckedIOException empty = assertThrows(UncheckedIOException.class, () -> HtapConfig.load(dir));
        assertTrue(empty.getMessage().contains("role OLTP needs at least one slot"), empty.getMessage());
    }
}
