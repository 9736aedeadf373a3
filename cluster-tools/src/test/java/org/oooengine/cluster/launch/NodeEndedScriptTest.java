package org.oooengine.cluster.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.PreviousEnd;

/**
 * libexec/ooo-node-ended, the ExecStopPost= of a node's systemd unit, run with the variables systemd
 * sets (systemd.exec(5): $SERVICE_RESULT, $EXIT_CODE, $EXIT_STATUS): it leaves the record the node
 * reads when it starts again, as the local supervisor does, private to the node's user.
 */
class NodeEndedScriptTest {
    private static final Path SCRIPT = Path.of("src", "dist", "libexec", "ooo-node-ended");

    @TempDir
    Path tmp;
    /** The cluster directory, which the script makes its run directory in. */
    Path cluster;

    @BeforeEach
    void shell() {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh");
        cluster = tmp.resolve("cluster");
    }

    @Test
    void anEndOfOutOfMemoryIsOneTheNodeTells() throws Exception {
        PreviousEnd end = ended("exit-code", "exited", "3");
        assertTrue(end.outOfMemory());
        assertEquals("out of memory, exit code 3", end.cause());
        assertEquals("exit code 3", end.detail());
    }

    @Test
    void otherEndsAreToldAsTheLocalSupervisorTellsThem() throws Exception {
        assertEquals("exit code 1", ended("exit-code", "exited", "1").cause());
        PreviousEnd killed = ended("signal", "killed", "KILL");
        assertEquals("killed by signal KILL", killed.cause());
        assertFalse(killed.outOfMemory());
        PreviousEnd kernel = ended("oom-kill", "killed", "KILL");
        assertTrue(kernel.outOfMemory());
        assertEquals("killed by the kernel's out-of-memory killer (signal KILL)", kernel.detail());
    }

    @Test
    void aCleanStopLeavesNoRecord() throws Exception {
        ended("exit-code", "exited", "3");
        run(Map.of("SERVICE_RESULT", "success", "EXIT_CODE", "exited", "EXIT_STATUS", "143"));
        assertFalse(Files.exists(PreviousEnd.file(cluster, "n1")));
    }

    /** The record the script leaves after an end systemd describes so; 0600 in a 0700 directory. */
    private PreviousEnd ended(String result, String code, String status) throws Exception {
        Instant before = Instant.now();
        run(Map.of("SERVICE_RESULT", result, "EXIT_CODE", code, "EXIT_STATUS", status));
        Path file = PreviousEnd.file(cluster, "n1");
        PreviousEnd end = PreviousEnd.read(file).orElseThrow(() -> new AssertionError("no " + file));
        assertFalse(end.at().isBefore(before.minusSeconds(1)) || end.at().isAfter(Instant.now()), end::toString);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        return end;
    }

    private void run(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/sh", SCRIPT.toString(), cluster.toString(), "n1"))
                .redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.equals("SERVICE_RESULT") || k.startsWith("EXIT_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script did not end");
        assertEquals(0, p.exitValue(), out);
    }
}
