package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each node's rack: from cluster.json, else from topology.data beside it, else Hadoop's default
 * rack; a partition's copies on other racks than its owner's, spread over their nodes.
 */
class ClusterSpecRackTest {
    @TempDir
    Path dir;

    private static ClusterSpec.NodeSpec node(String id, String host, String rack) {
        return new ClusterSpec.NodeSpec(id, host, 7101, null, "/data/" + id, rack);
    }

    private static ClusterSpec spec(ClusterSpec.NodeSpec... nodes) {
        List<String> ids = java.util.Arrays.stream(nodes).map(ClusterSpec.NodeSpec::id).toList();
        return new ClusterSpec(ClusterSpec.FORMAT_VERSION, "c", List.of(nodes), ids, Map.of());
    }

    @Test
    void racksWrittenInClusterJsonAreReadBack() {
        spec(node("n1", "10.0.0.11", "/rack1"), node("n2", "10.0.0.12", "/rack2")).write(dir);
        ClusterSpec read = ClusterSpec.read(dir);
        assertEquals("/rack1", read.node("n1").rack());
        assertEquals("/rack2", read.node("n2").rack());
    }

    @Test
    void aClusterJsonWithoutRacksStaysAsItWasAndNodesAreOnTheDefaultRack() throws Exception {
        ClusterSpec local = ClusterSpec.local("c", 2, 7100);
        local.write(dir);
        assertFalse(Files.readString(dir.resolve(ClusterSpec.FILE_NAME)).contains("rack"));
        ClusterSpec read = ClusterSpec.read(dir);
        assertNull(read.node("n1").rack());
        assertEquals(ClusterSpec.DEFAULT_RACK, ClusterSpec.rackOf(read.node("n1")));
        assertEquals(Map.of(ClusterSpec.DEFAULT_RACK, read.nodes()), read.nodesByRack());
    }

    @Test
    void topologyDataGivesTheRacksClusterJsonLeavesOut() throws Exception {
        spec(node("n1", "10.0.0.11", null), node("n2", "10.0.0.12", null), node("n3", "10.0.0.13", "/rack9"),
                node("n4", "10.0.0.99", null)).write(dir);
        // as `ooo deploy inventory` writes it: host names and addresses, comments
        Files.writeString(dir.resolve(ClusterSpec.TOPOLOGY_FILE), """
                # host name or address, then its rack
                h1 /rack1
                10.0.0.11 /rack1

                10.0.0.12 /rack2   # a comment
                10.0.0.13 /rack3
                """);
        ClusterSpec read = ClusterSpec.read(dir);
        assertEquals("/rack1", read.node("n1").rack());
        assertEquals("/rack2", read.node("n2").rack());
        assertEquals("/rack9", read.node("n3").rack(), "cluster.json's own rack wins");
        assertNull(read.node("n4").rack(), "a host the topology does not list");
        Map<String, List<ClusterSpec.NodeSpec>> byRack = read.nodesByRack();
        assertEquals(List.of(ClusterSpec.DEFAULT_RACK, "/rack1", "/rack2", "/rack9"), List.copyOf(byRack.keySet()));
        assertEquals(List.of("n1"), byRack.get("/rack1").stream().map(ClusterSpec.NodeSpec::id).toList());
        assertEquals(List.of("n4"), byRack.get(ClusterSpec.DEFAULT_RACK).stream().map(ClusterSpec.NodeSpec::id).toList());
    }

    @Test
    void racksSurviveTheJsonAJobCarries() {
        ClusterSpec spec = spec(node("n1", "a", "/r1"), node("n2", "b", "/r2"), node("n3", "c", "/r1"));
        ClusterSpec back = ClusterSpec.fromJson(spec.toJson());
        assertEquals(spec, back);
        assertEquals(2, back.nodesByRack().get("/r1").size());
    }

    @Test
    void copiesStandOnOtherRacksAndSpreadOverTheirNodes() {
        ClusterSpec two = spec(node("n1", "a", "/r1"), node("n2", "b", "/r1"), node("n3", "c", "/r1"),
                node("n4", "d", "/r2"), node("n5", "e", "/r2"), node("n6", "f", "/r2")).withReplication(2);
        assertEquals(List.of(List.of("n1", "n4"), List.of("n2", "n5"), List.of("n3", "n6"), List.of("n4", "n1"),
                List.of("n5", "n2"), List.of("n6", "n3")), allHolders(two, "t"));
        ClusterSpec three = two.withReplication(3);
        assertEquals(List.of("n1", "n4", "n2"), three.holders("t", 0), "racks used up: the next owner in order");
        ClusterSpec oneRack = spec(node("n1", "a", null), node("n2", "b", null), node("n3", "c", null)).withReplication(2);
        assertEquals(List.of(List.of("n1", "n2"), List.of("n2", "n3"), List.of("n3", "n1")), allHolders(oneRack, "t"),
                "one rack: chained declustering");
    }

    private static List<List<String>> allHolders(ClusterSpec spec, String table) {
        return java.util.stream.IntStream.range(0, spec.owners(table).size()).mapToObj(p -> spec.holders(table, p)).toList();
    }

    @Test
    void aMalformedTopologyLineIsNamed() throws Exception {
        Path f = dir.resolve(ClusterSpec.TOPOLOGY_FILE);
        Files.writeString(f, "h1 /rack1\nh2 rack2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterSpec.readTopology(f));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }
}
