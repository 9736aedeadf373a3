package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.net.Frame;
import org.oooengine.core.net.OpCode;
import org.oooengine.core.net.Responder;

/** Every request op code is served by exactly one family of a node's requests. */
class RequestTableTest {
    @TempDir
    Path dir;

    @Test
    void everyRequestHasOneFamilyAndNothingElseHasOne() throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 1)) {
            RequestTable table = cluster.daemons.get(0).service().requests();
            Set<OpCode> requests = Arrays.stream(OpCode.values()).filter(OpCode::isRequest)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(OpCode.class)));
            assertEquals(requests, table.owners().keySet(), "the op codes the node's request families serve");
        }
    }

    @Test
    void anOpServedByTwoFamiliesIsRefused() {
        RequestFamily probes = family(OpCode.FETCH_ROWS, OpCode.COUNT_RANGE);
        RequestFamily counts = family(OpCode.COUNT_RANGE);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new RequestTable(List.of(probes, counts)));
        assertEquals(true, e.getMessage().startsWith("COUNT_RANGE is served by both"), e.getMessage());
    }

    private static RequestFamily family(OpCode... ops) {
        return new RequestFamily() {
            @Override
            public Set<OpCode> ops() {
                return EnumSet.copyOf(List.of(ops));
            }

            @Override
            public void handle(Frame request, Responder out) {
            }
        };
    }
}
