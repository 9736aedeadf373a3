package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A table's copies as the names the nodes store tell, on three nodes: kept once, twice or on every
 * node, with every node's data there, with one node's lost (it stores nothing of the table, which
 * must not make a table on every node look kept twice, nor one kept once look kept more), with
 * only one node heard from, and with a node lacking a single copy.
 */
class TableCopiesTest {
    private static final ClusterSpec SPEC = ClusterSpec.local("c", 3, 40_001).withReplication(2);

    @Test
    void theFewestCopiesTheStoredNamesFit() {
        for (int copies = 1; copies <= 3; copies++) {
            assertEquals(Map.of("t", copies), TableCopies.of(SPEC, stored(copies, Set.of(), Set.of())), copies + " copies");
            assertEquals(Map.of("t", copies), TableCopies.of(SPEC, stored(copies, Set.of("n2"), Set.of())),
                    copies + " copies, n2's data lost");
            Map<String, Set<String>> unheard = stored(copies, Set.of(), Set.of());
            unheard.remove("n2");
            unheard.remove("n3");
            assertEquals(Map.of("t", copies), TableCopies.of(SPEC, unheard), copies + " copies, only n1 heard");
        }
        assertEquals(Map.of("t", 3), TableCopies.of(SPEC, stored(3, Set.of(), Set.of("t/partition-0"))),
                "n2 lacks its copy of partition 0 alone");
        assertEquals(Map.of(), TableCopies.of(SPEC, Map.of("n1", Set.of(), "n2", Set.of(), "n3", Set.of())));
    }

    /** What each node stores of table t kept {@code copies} times, {@code lost} storing nothing, n2 lacking {@code lacking}. */
    private static Map<String, Set<String>> stored(int copies, Set<String> lost, Set<String> lacking) {
        Map<String, Set<String>> stored = new HashMap<>();
        for (String node : List.of("n1", "n2", "n3")) {
            stored.put(node, new HashSet<>());
        }
        for (int p = 0; p < 3; p++) {
            for (String node : SPEC.holders("t", p, copies)) {
                String name = SPEC.storedName("t", p, node);
                if (!lost.contains(node) && !(node.equals("n2") && lacking.contains(name))) {
                    stored.get(node).add(name);
                }
            }
        }
        return stored;
    }
}
