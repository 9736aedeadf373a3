package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members refuse to run as root unless told to. Each command runs as its own JVM, as an operator
 * would run it, without {@value RootCheck#ENV} (which the build sets for the other tests). Only
 * checkable as root.
 */
class RootRefusalTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void asRoot() {
        assumeTrue(RootCheck.runningAsRoot(), "the tests do not run as root");
    }

    @Test
    void aNodeRefusesRootAndSaysHowToAllowIt() throws Exception {
        Run r = ooo("node", "--cluster", tmp.resolve("c").toString(), "--id", "n1");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().startsWith("error: refusing to run a cluster node as root:"), r::toString);
        assertTrue(r.err().contains("Run 'ooo node' as an unprivileged user")
                && r.err().contains("pass --allow-root (OOO_ALLOW_ROOT=1 in scripts)"), r::toString);
    }

    @Test
    void theCoordinatorRefusesRoot() throws Exception {
        Run r = ooo("server", "--cluster", tmp.resolve("c").toString(), "--port", "0");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().startsWith("error: refusing to run the coordinator as root:"), r::toString);
    }

    @Test
    void clusterStartRefusesRootBeforeCreatingAnything() throws Exception {
        Path dir = tmp.resolve("new-cluster");
        Run r = ooo("cluster", "start", "--cluster", dir.toString(), "--nodes", "1");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().startsWith("error: refusing to run a cluster as root:"), r::toString);
        assertFalse(Files.exists(dir), "created " + dir);
    }

    /** With the flag the node gets past the check, to the next thing wrong: there is no cluster. */
    @Test
    void theFlagAllowsRoot() throws Exception {
        Run r = ooo("node", "--cluster", tmp.resolve("none").toString(), "--id", "n1", "--allow-root");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.err().contains("no cluster at"), r::toString);
        assertFalse(r.err().contains("root"), r::toString);
    }

    private record Run(int exitCode, String err) {
    }

    private static Run ooo(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), OooCli.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove(RootCheck.ENV);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), err);
    }
}
