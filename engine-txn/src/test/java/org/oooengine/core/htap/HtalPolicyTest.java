package org.oooengine.core.htap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.HtalPolicy.Decision;
import org.oooengine.core.htap.HtalPolicy.Signals;
import org.oooengine.core.htap.HtalPolicy.State;

/** Algorithms 1 and 2 of seed 000 with its thresholds: each state, each move, and the donors' order. */
class HtalPolicyTest {
    private static final HtalPolicy SEED = new HtalPolicy(HtalPolicy.Parameters.SEED);
    private static final Map<Role, Integer> SLOTS = Map.of(Role.OLTP, 3, Role.OLAP, 3, Role.LOG_SHIPPING, 1, Role.DISPATCH, 1);

    private static Signals signals(double waiting, double freshness, double dispatchCpu, double variance, double olapCpu,
                                   double olapIoWait, int useful, Map<Role, Integer> slots) {
        return new Signals(waiting, freshness, dispatchCpu, variance, olapCpu, olapIoWait, useful, slots);
    }

    @Test
    void oltpWaitersAtAlphaPutTheNodeInOltpModeWhateverTheFreshness() {
        assertEquals(State.S1_OLTP, SEED.state(signals(2, 0.1, 0, 0, 0, 0, 1, SLOTS)));
        assertEquals(State.S2_LOG_SHIPPING, SEED.state(signals(1.9, 0.85, 0, 0, 0, 0, 1, SLOTS)));
        assertEquals(State.S3_OLAP, SEED.state(signals(1.9, 0.86, 0, 0, 0, 0, 1, SLOTS)));
    }

    @Test
    void inOltpModeDispatchComesFirstThenAResplitOfSkewedPartitionsThenASlotForOltp() {
        Decision d = SEED.decide(signals(5, 1, 0.6, 100, 0, 0, 1, SLOTS));
        assertEquals(Decision.Action.MOVE, d.action());
        assertEquals(Role.OLAP, d.from());
        assertEquals(Role.DISPATCH, d.to());
        assertTrue(d.why().contains("dispatch CPU 60.0% >= γ 60.0%"), d.why());

        d = SEED.decide(signals(5, 1, 0.1, 8, 0, 0, 1, SLOTS));
        assertEquals(Decision.Action.RESPLIT_OLTP, d.action());
        assertTrue(d.why().contains("variance 8.0 >= δ 8.0"), d.why());

        d = SEED.decide(signals(5, 1, 0.1, 7.9, 0, 0, 1, SLOTS));
        assertEquals(Decision.Action.MOVE, d.action());
        assertEquals(Role.OLAP, d.from());
        assertEquals(Role.OLTP, d.to());

        d = SEED.oltpSlot(signals(5, 1, 0.1, 9, 0, 0, 1, SLOTS), "a re-split moved none");
        assertEquals(Role.OLTP, d.to());
        assertEquals("a re-split moved none", d.why());
    }

    @Test
    void dispatchHeldToNoShareNeverAsksForASlot() {
        Decision oltp = SEED.decide(signals(5, 1, Double.NaN, 0, 0, 0, 1, SLOTS));
        assertEquals(Role.OLTP, oltp.to(), oltp.why());
        Decision olap = SEED.decide(signals(0, 1, Double.NaN, 0, 0.9, 0, 1, SLOTS));
        assertEquals(Role.OLAP, olap.to(), olap.why());
    }

    @Test
    void oltpTakesFromLogShippingOnceOlapHasOneSlotLeftAndNeverEmptiesARole() {
        Map<Role, Integer> thin = Map.of(Role.OLTP, 5, Role.OLAP, 1, Role.LOG_SHIPPING, 2, Role.DISPATCH, 1);
        Decision d = SEED.decide(signals(5, 1, 0.1, 0, 0, 0, 1, thin));
        assertEquals(Role.LOG_SHIPPING, d.from());
        Map<Role, Integer> bare = Map.of(Role.OLTP, 6, Role.OLAP, 1, Role.LOG_SHIPPING, 1, Role.DISPATCH, 1);
        d = SEED.decide(signals(5, 1, 0.1, 0, 0, 0, 1, bare));
        assertEquals(Decision.Action.NONE, d.action());
        assertTrue(d.why().contains("no role it may take a slot from has one to spare"), d.why());
    }

    @Test
    void staleCopiesGetALogShippingSlotWhileItHasWorkForIt() {
        Decision d = SEED.decide(signals(0, 0.5, 0, 0, 0, 0, 3, SLOTS));
        assertEquals(State.S2_LOG_SHIPPING, d.state());
        assertEquals(Role.OLAP, d.from());
        assertEquals(Role.LOG_SHIPPING, d.to());
        Map<Role, Integer> many = Map.of(Role.OLTP, 3, Role.OLAP, 2, Role.LOG_SHIPPING, 4, Role.DISPATCH, 1);
        assertEquals(Decision.Action.NONE, SEED.decide(signals(0, 0.5, 0, 0, 0, 0, 3, many)).action());
    }

    @Test
    void inOlapModeABusyOlapRoleThatDoesNotWaitOnIoTakesFromOltp() {
        Decision d = SEED.decide(signals(0, 1, 0, 0, 0.8, 0.1, 1, SLOTS));
        assertEquals(State.S3_OLAP, d.state());
        assertEquals(Role.OLTP, d.from());
        assertEquals(Role.OLAP, d.to());
        assertEquals(Decision.Action.NONE, SEED.decide(signals(0, 1, 0, 0, 0.8, 0.3, 1, SLOTS)).action());
        assertEquals(Decision.Action.NONE, SEED.decide(signals(0, 1, 0, 0, 0.5, 0, 1, SLOTS)).action());
    }

    @Test
    void sharesOutsideZeroToOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new HtalPolicy.Parameters(2, 85, 0.6, 8, 0.8, 0.1));
    }
}
