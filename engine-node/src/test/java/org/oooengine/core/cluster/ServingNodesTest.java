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
 * holder is down too, and a partition both of whose holders are down is named with them.
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

    private static List<String> nodes(List<ServingNodes.Served> served) {
        return served.stream().map(ServingNodes.Served::node).toList();
    }
}
