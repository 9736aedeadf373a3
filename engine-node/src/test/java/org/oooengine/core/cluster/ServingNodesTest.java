package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which node serves each partition on three nodes keeping two copies: the owner while it is up,
 * else the next holder; a node found down lately and back since serves again as soon as the other
 * holder is down too, and a partition both of whose holders are down is named with them; an owner
 * whose queue of work is much longer than another holder's gives its partition to that holder.
 */
class ServingNodesTest {
    @Test
    void theOwnerElseTheNextHolderAndANodeBackServesAtOnce(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 3, NodeService.Caps.DEFAULTS, 2);
             ClusterSession session = cluster.session()) {
            ServingNodes serving = session.serving();
            assertEquals(List.of("n1", "n2", "n3"), nodes(serving.of("t")));
            cluster.stop("n2");
            assertEquals(List.of("n1", "n3", "n3"), nodes(serving.of("t")), "n2's partition from its copy on n3");
            assertEquals(List.of("n1", "n3"), serving.liveNodes());
            cluster.restart("n2");
            cluster.stop("n3");
            // n2 was found down a moment ago; n3 is down now: n2 is asked again rather than giving up
            assertEquals(List.of("n1", "n2", "n1"), nodes(serving.of("t")));
            cluster.stop("n1");
            ClusterException none = assertThrows(ClusterException.class, () -> serving.of("t"));
            assertTrue(none.getMessage().contains("partition 0 of table t is held by nodes [n1, n2], none of which answers")
                    || none.getMessage().contains("partition 2 of table t is held by nodes [n3, n1], none of which answers"),
                    none.getMessage());
        }
    }

    @Test
    void aHolderWhoseQueueIsMuchLongerGivesItsPartitionToTheLeastLoaded() {
        java.util.Map<String, Integer> queues = new java.util.HashMap<>(java.util.Map.of("n1", 0, "n2", 0, "n3", 0));
        List<String> able = List.of("n1", "n2", "n3");
        assertEquals("n1", ServingNodes.relieved(able, queues::get), "equal queues: the owner");
        queues.put("n1", 2);
        assertEquals("n1", ServingNodes.relieved(able, queues::get), "within the margin: the owner");
        queues.put("n1", 3);
        queues.put("n2", 1);
        assertEquals("n3", ServingNodes.relieved(able, queues::get), "3 > 2 x 0 + 2: the shortest queue");
        queues.put("n3", 1);
        assertEquals("n1", ServingNodes.relieved(able, queues::get), "3 is not over 2 x 1 + 2");
        queues.put("n1", 9);
        assertEquals("n2", ServingNodes.relieved(able, queues::get), "of equal queues, the first in order");
        assertEquals("n3", ServingNodes.relieved(List.of("n3"), queues::get), "one holder able: that one");
    }

    private static List<String> nodes(List<ServingNodes.Served> served) {
        return served.stream().map(ServingNodes.Served::node).toList();
    }
}
