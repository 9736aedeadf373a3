package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.oooengine.core.net.ErrorCode;
import org.oooengine.core.net.NodeClient;
import org.oooengine.core.net.RemoteException;

/**
 * A statement that lost its connection to a node asks the node, once its supervisor started it
 * again, how its previous run ended: out of memory after the statement began is the statement's
 * fault of memory; a node that does not come back is named within the wait.
 */
class LostNodesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> NODES = List.of("n1", "n2");
    private static final String OOM = "out of memory, exit code 3: java.lang.OutOfMemoryError: Java heap space";

    /** The failure a statement meets when the process of {@code node} ends under it, as the coordinator wraps it. */
    private static RuntimeException lost(String node) {
        RemoteException re = new RemoteException(node, ErrorCode.NODE_UNAVAILABLE, "connection to 127.0.0.1:7101" + NodeClient.LOST);
        return new IllegalStateException("writing default.big failed",
                new ClusterException("loading big on node " + node + " failed: " + re.getMessage(), new CompletionException(re)));
    }

    /** A node's statistics saying that its previous run ended {@code secondsAgo} before its answer, of {@code cause}. */
    private static JsonNode restarted(String cause, double secondsAgo) {
        Instant now = Instant.parse("2026-11-28T08:41:05Z");
        Instant at = now.minusMillis((long) (secondsAgo * 1000));
        return JSON.valueToTree(Map.of("node", "n1", "uptimeSeconds", 1.5,
                PreviousEnd.STATS_FIELD, new PreviousEnd(cause, at).toStats(now)));
    }

    @Test
    void theNodesALostConnectionNamesAreFoundHoweverWrappedOrPassedOn() {
        LostNodes lostNodes = new LostNodes((node, within) -> Optional.empty(), NODES, Duration.ofSeconds(1));
        assertEquals(Set.of("n1"), lostNodes.named(lost("n1")));
        // n1 met the loss of n2 and passed it on in its error frame
        RemoteException relayed = new RemoteException("n1", ErrorCode.NODE_UNAVAILABLE,
                new RemoteException("n2", ErrorCode.NODE_UNAVAILABLE, "connection to 10.0.0.2:7101" + NodeClient.LOST).getMessage());
        assertEquals(Set.of("n2"), lostNodes.named(new ClusterException("scan of orders failed", relayed)));
        // a node that could not be reached at all, or missed a deadline, was not lost while the statement ran
        assertEquals(Set.of(), lostNodes.named(new RemoteException("n1", ErrorCode.NODE_UNAVAILABLE,
                "unreachable at 127.0.0.1:7101 (Connection refused)")));
        assertEquals(Set.of(), lostNodes.named(new RemoteException("n1", ErrorCode.TIMEOUT, "SCAN_PARTITION request to "
                + "127.0.0.1:7101 got no answer within 10000 ms: the node is not answering")));
        // nor is a name that is none of the cluster's nodes
        assertEquals(Set.of(), lostNodes.named(lost("n9")));
    }

    @Test
    void aPredecessorOutOfMemoryAfterTheStatementBeganIsTheStatementsFault() {
        RuntimeException failure = lost("n1");
        // the statement began 6 s before the answer; the run ended 3 s before it
        LostNodes.Verdict v = LostNodes.verdict(restarted(OOM, 3), 6);
        assertEquals(LostNodes.Kind.OUT_OF_MEMORY, v.kind());
        RuntimeException heard = LostNodes.decide(failure, Map.of("n1", v), Duration.ofSeconds(10));
        NodeRanOutOfMemoryException oom = assertInstanceOf(NodeRanOutOfMemoryException.class, heard);
        assertEquals("n1", oom.node());
        assertEquals("node n1 ran out of memory (exit code 3: java.lang.OutOfMemoryError: Java heap space) while running "
                + "this statement and was restarted by its supervisor", oom.getMessage());
        assertSame(failure, oom.getCause());
        // the end is known to the second: one just under a second "before" the statement began may be in it
        assertEquals(LostNodes.Kind.OUT_OF_MEMORY, LostNodes.verdict(restarted(OOM, 6.8), 6).kind());
    }

    @Test
    void aPredecessorThatEndedBeforeTheStatementBeganSaysNothingOfIt() {
        RuntimeException failure = lost("n1");
        LostNodes.Verdict before = LostNodes.verdict(restarted(OOM, 120), 6);
        assertEquals(LostNodes.Kind.SAME_RUN, before.kind());
        assertSame(failure, LostNodes.decide(failure, Map.of("n1", before), Duration.ofSeconds(10)));
        // nor does a node started by the operator, with no predecessor's end to tell
        JsonNode fresh = JSON.valueToTree(Map.of("node", "n1", "uptimeSeconds", 2.0));
        assertEquals(LostNodes.Kind.SAME_RUN, LostNodes.verdict(fresh, 6).kind());
    }

    @Test
    void anotherEndWhileTheStatementRanIsNamedAsANodeFailure() {
        RuntimeException failure = lost("n1");
        RuntimeException heard = LostNodes.decide(failure, Map.of("n1",
                LostNodes.verdict(restarted("killed by signal 9, exit code 137", 2), 5)), Duration.ofSeconds(10));
        assertInstanceOf(ClusterException.class, heard);
        assertEquals("node n1 ended (killed by signal 9, exit code 137) while running this statement and was restarted "
                + "by its supervisor", heard.getMessage());
        assertSame(failure, heard.getCause());
    }

    @Test
    void aNodeStartedAgainAfterAFewRefusalsIsHeard() {
        AtomicInteger asked = new AtomicInteger();
        LostNodes lostNodes = new LostNodes((node, within) -> asked.incrementAndGet() < 3 ? Optional.empty()
                : Optional.of(restarted(OOM, 0.5)), NODES, Duration.ofSeconds(30));
        long t0 = System.nanoTime();
        RuntimeException heard = lostNodes.explain(lost("n1"), t0, () -> false);
        assertInstanceOf(NodeRanOutOfMemoryException.class, heard, heard::toString);
        assertEquals(3, asked.get());
        // two pauses of a quarter second, with time to spare on a busy machine
        assertTrue(seconds(t0) < 10, "took " + seconds(t0) + " s");
    }

    @Test
    void aNodeThatDoesNotComeBackIsNamedWithinTheWait() {
        List<Duration> asks = new ArrayList<>();
        LostNodes lostNodes = new LostNodes((node, within) -> {
            asks.add(within);
            return Optional.empty();
        }, NODES, Duration.ofSeconds(1));
        RuntimeException failure = lost("n1");
        long t0 = System.nanoTime();
        RuntimeException heard = lostNodes.explain(failure, t0, () -> false);
        double took = seconds(t0);
        assertInstanceOf(ClusterException.class, heard);
        assertSame(failure, heard.getCause());
        assertEquals(failure.getMessage() + "; node n1 did not answer again within 1s", heard.getMessage());
        assertTrue(took >= 0.9 && took < 5, "took " + took + " s for a wait of 1 s");
        assertTrue(asks.size() >= 2, "asked again while it waited: " + asks);
        assertTrue(asks.stream().allMatch(d -> d.compareTo(Duration.ofSeconds(1)) <= 0), "each ask within the wait: " + asks);
    }

    @Test
    void withoutAWaitOrALostConnectionTheFailureIsAsItWas() {
        RuntimeException failure = lost("n1");
        LostNodes never = new LostNodes((node, within) -> {
            throw new AssertionError("asked " + node);
        }, NODES, Duration.ZERO);
        assertSame(failure, never.explain(failure, System.nanoTime(), () -> false));
        LostNodes waiting = new LostNodes((node, within) -> {
            throw new AssertionError("asked " + node);
        }, NODES, Duration.ofSeconds(10));
        RuntimeException other = new RemoteException("n1", ErrorCode.TIMEOUT, "no answer within 10000 ms");
        assertSame(other, waiting.explain(other, System.nanoTime(), () -> false));
    }

    @Test
    void aCancelledStatementWaitsNoLonger() {
        LostNodes lostNodes = new LostNodes((node, within) -> Optional.empty(), NODES, Duration.ofSeconds(60));
        RuntimeException failure = lost("n1");
        long t0 = System.nanoTime();
        assertSame(failure, lostNodes.explain(failure, t0, () -> true));
        assertTrue(seconds(t0) < 10, "took " + seconds(t0) + " s");
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
