package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.storage.Directories;

/**
 * The nodes' CPU profiles: started and stopped by name on every node, written under each node's
 * data directory where only its user reads them, summarized by the methods their samples were in;
 * one at a time per node, and a name that is no plain file name refused.
 */
class ProfileRequestsTest {
    private static Path dir;
    private static TestCluster cluster;
    private static ClusterSession session;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ooo-profile-test");
        cluster = new TestCluster(dir.resolve("cluster"), 2);
        session = cluster.session();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        Directories.deleteRecursively(dir);
    }

    @Test
    void aProfileIsWrittenOnEachNodeAndSummarized() throws Exception {
        session.startProfiles("busy");
        // half a second of this thread's CPU, not of the clock: on a busy machine the sampler needs the thread on a core
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuFrom = cpu.getCurrentThreadCpuTime();
        long giveUp = System.nanoTime() + 30_000_000_000L;
        double sink = 0;
        while (cpu.getCurrentThreadCpuTime() - cpuFrom < 500_000_000L && System.nanoTime() < giveUp) {
            for (int i = 0; i < 10_000; i++) {
                sink += Math.sqrt(sink + 1);
            }
        }
        Map<String, JsonNode> profiles = session.stopProfiles("busy");
        assertEquals(2, profiles.size(), String.valueOf(sink));
        for (String node : new String[] {"n1", "n2"}) {
            JsonNode p = profiles.get(node);
            assertEquals(node, p.path("node").asText());
            Path file = Path.of(p.path("file").asText());
            assertTrue(file.startsWith(cluster.spec.dataDir(cluster.dir, cluster.spec.node(node))), file.toString());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            // the nodes share this process: each profile holds its samples, this test's spinning among them
            assertTrue(p.path("samples").asLong() > 0, p.toString());
            assertTrue(p.path("top").size() > 0, p.toString());
        }
    }

    @Test
    void aNodeRecordsOneProfileAtATime() {
        session.startProfiles("first");
        try {
            RuntimeException e = assertThrows(RuntimeException.class, () -> session.startProfiles("second"));
            assertTrue(e.getMessage().contains("is recording profile first already"), e.getMessage());
            RuntimeException unknown = assertThrows(RuntimeException.class, () -> session.stopProfiles("second"));
            assertTrue(unknown.getMessage().contains("records no profile second"), unknown.getMessage());
        } finally {
            session.stopProfiles("first");
        }
    }

    @Test
    void aNameThatIsNoPlainFileNameIsRefused() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> session.startProfiles("../../etc/x"));
        assertTrue(e.getMessage().contains("a profile's name is letters"), e.getMessage());
    }
}
