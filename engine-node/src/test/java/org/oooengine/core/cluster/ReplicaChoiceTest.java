package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Answer times per peer, and the holder a request goes to by them. */
class ReplicaChoiceTest {
    private static final List<String> HOLDERS = List.of("n2", "n3");

    @Test
    void aPeerIsUnknownUntilItHasAnsweredEnough() {
        PeerLatencies latencies = new PeerLatencies();
        for (int i = 0; i < PeerLatencies.MIN_SAMPLES - 1; i++) {
            latencies.record("n2", 1_000);
        }
        assertEquals(-1, latencies.quantile("n2", 0.5));
        assertEquals(-1, latencies.typical(0.5));
        latencies.record("n2", 1_000);
        assertEquals(1_000, latencies.quantile("n2", 0.5));
    }

    @Test
    void quantilesFollowTheLastAnswersOnly() {
        PeerLatencies latencies = new PeerLatencies();
        for (int i = 1; i <= 100; i++) {
            latencies.record("n2", i * 1_000L);
        }
        assertEquals(51_000, latencies.quantile("n2", 0.5));
        assertEquals(96_000, latencies.quantile("n2", 0.95));
        for (int i = 0; i < PeerLatencies.WINDOW; i++) {
            latencies.record("n2", 7_000);
        }
        assertEquals(7_000, latencies.quantile("n2", 0.99), "older answers have left the window");
    }

    @Test
    void oneSlowPeerDoesNotMoveTheTypicalPeer() {
        PeerLatencies latencies = new PeerLatencies();
        answers(latencies, "n1", 1_000);
        answers(latencies, "n2", 30_000);
        answers(latencies, "n3", 2_000);
        assertEquals(2_000, latencies.typical(0.95));
    }

    @Test
    void theOwnerIsAskedUntilItIsTwiceAsSlowAsAnotherHolder() {
        PeerLatencies latencies = new PeerLatencies();
        long[] now = {ReplicaChoice.SLOT_NANOS};
        ReplicaChoice choice = new ReplicaChoice(latencies, () -> now[0]);
        assertEquals("n2", choice.choose(HOLDERS, n -> true), "nothing known yet: the owner");
        answers(latencies, "n2", 1_500);
        answers(latencies, "n3", 1_000);
        assertEquals("n2", choice.choose(HOLDERS, n -> true), "slower, but not twice as slow");
        answers(latencies, "n2", 3_000);
        int toOwner = 0;
        for (int slot = 0; slot < 10 * ReplicaChoice.PROBE_EVERY; slot++) {
            now[0] = slot * ReplicaChoice.SLOT_NANOS + 1;
            String first = choice.choose(HOLDERS, n -> true);
            assertEquals(first, choice.choose(HOLDERS, n -> true), "the same holder within a slot");
            toOwner += first.equals("n2") ? 1 : 0;
        }
        assertEquals(10, toOwner, "passed over, but for one slot in " + ReplicaChoice.PROBE_EVERY);
        assertEquals("n3", choice.choose(HOLDERS, Set.of("n3")::contains), "a holder without a connection is not asked");
        assertNull(choice.choose(HOLDERS, n -> false));
    }

    @Test
    void theSecondHolderIsTheNextConnectedOne() {
        ReplicaChoice choice = new ReplicaChoice(new PeerLatencies());
        List<String> three = List.of("n1", "n2", "n3");
        assertEquals("n3", choice.second(three, "n2", n -> true));
        assertEquals("n1", choice.second(three, "n2", Set.of("n1", "n2")::contains));
        assertNull(choice.second(List.of("n1"), "n1", n -> true));
    }

    private static void answers(PeerLatencies latencies, String node, long nanos) {
        for (int i = 0; i < PeerLatencies.WINDOW; i++) {
            latencies.record(node, nanos);
        }
    }
}
