package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.TestCluster;

/** {@code ooo cluster htap} sets every node's HTAP mode and shows what each runs. */
class ClusterHtapCommandTest {
    @TempDir
    Path dir;

    @Test
    void setsEveryNodesModeAndShowsIt() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 2)) {
            String at = dir.toString();
            List<JsonNode> nodes = json(Cli.run("cluster", "htap", "--cluster", at, "--json"));
            assertEquals(2, nodes.size());
            nodes.forEach(n -> assertEquals("copies", n.get("mode").asText(), n.toString()));

            Cli set = Cli.run("cluster", "htap", "--cluster", at, "--mode", "static", "--slots",
                    "oltp=2,olap=4,log-shipping=1,dispatch=1", "--cores-per-node", "1", "--switch-every", "45s", "--trees-only", "--json");
            for (JsonNode n : json(set)) {
                assertEquals("static", n.get("mode").asText(), n.toString());
                assertEquals(2, n.get("slots").get("oltp").asInt(), n.toString());
                assertEquals(4, n.get("slots").get("olap").asInt(), n.toString());
                assertEquals(45.0, n.get("switch_every_s").asDouble(), n.toString());
                assertTrue(n.get("trees_only").asBoolean(), n.toString());
            }

            Cli shown = Cli.run("cluster", "htap", "--cluster", at);
            assertEquals(0, shown.exitCode(), shown::toString);
            assertTrue(shown.out().contains("node n1: static, slots {oltp=2, olap=4, log-shipping=1, dispatch=1} of 1.00 "
                    + "cores"), shown::toString);
            assertTrue(shown.out().contains("queries read the trees only"), shown::toString);

            // without --cores-per-node each node takes its host's cores over the nodes on it (both are on this host)
            double share = Runtime.getRuntime().availableProcessors() / 2.0;
            for (JsonNode n : json(Cli.run("cluster", "htap", "--cluster", at, "--mode", "htal", "--json"))) {
                assertEquals("htal", n.get("mode").asText(), n.toString());
                assertEquals(share, n.get("cores_shared").asDouble(), 1e-9, n.toString());
                assertTrue(!n.get("trees_only").asBoolean(), n.toString());
            }

            Cli back = Cli.run("cluster", "htap", "--cluster", at, "--mode", "copies");
            assertTrue(back.out().contains("node n2: copies, roles unbounded"), back::toString);
        }
    }

    @Test
    void refusesAModeOrSettingsItCannotUseBeforeTouchingACluster() {
        Cli mode = Cli.run("cluster", "htap", "--cluster", "/nowhere", "--mode", "unified");
        assertEquals(2, mode.exitCode(), mode::toString);
        assertTrue(mode.err().contains("--mode is one of copies, static, htal, no-shipping, not 'unified'"), mode::toString);
        Cli alone = Cli.run("cluster", "htap", "--cluster", "/nowhere", "--htal", "beta=0.9");
        assertEquals(2, alone.exitCode(), alone::toString);
        assertTrue(alone.err().contains("--htal sets a mode's settings: give --mode with it"), alone::toString);
        Cli slots = Cli.run("cluster", "htap", "--cluster", "/nowhere", "--mode", "htal", "--slots", "oltp=3");
        assertEquals(2, slots.exitCode(), slots::toString);
        assertTrue(slots.err().contains("--slots names every role"), slots::toString);
    }

    private static List<JsonNode> json(Cli r) throws Exception {
        assertEquals(0, r.exitCode(), r::toString);
        List<JsonNode> out = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (!line.isBlank()) {
                out.add(new ObjectMapper().readTree(line));
            }
        }
        return out;
    }
}
