package org.oooengine.core.htap;

import java.util.List;
import java.util.Map;
import org.oooengine.core.htap.CoreRoles.Role;

/**
 * HTAL's rules (seed 000), a pure function from what a node measured to what to do: Algorithm 1
 * picks the state from the OLTP queue waiters and the freshness, Algorithm 2 the move. Priority:
 * OLTP throughput, then freshness, then OLAP throughput; a slot is taken from a role the state
 * does not favour, and every role keeps one.
 *
 * <p>In OLTP mode the seed's listing gives OLTP a slot when the waits over its partitions vary
 * by δ or more and re-splits them otherwise; its text re-splits when the load is skewed. This
 * follows the text: a re-split evens out load, a slot adds to it, and
 * partitions with even waits gain nothing from being split anew.
 */
public final class HtalPolicy {
    /** The seed's states: OLTP mode, log-shipping mode, OLAP mode. */
    public enum State { S1_OLTP, S2_LOG_SHIPPING, S3_OLAP }

    /**
     * The thresholds, with the seed's defaults: α OLTP waiters, β freshness, γ dispatch CPU, δ
     * variance of the OLTP partitions' waiters, ε OLAP CPU, ζ OLAP I/O wait (shares in [0, 1]).
     */
    public record Parameters(double alpha, double beta, double gamma, double delta, double epsilon, double zeta) {
        public static final Parameters SEED = new Parameters(2, 0.85, 0.60, 8, 0.80, 0.10);

        public Parameters {
            for (double share : new double[] {beta, gamma, epsilon, zeta}) {
                if (share < 0 || share > 1) {
                    throw new IllegalArgumentException("HTAL's β, γ, ε and ζ are shares in [0, 1], not " + share);
                }
            }
            if (alpha < 0 || delta < 0) {
                throw new IllegalArgumentException("HTAL's α and δ are not negative: " + alpha + ", " + delta);
            }
        }
    }

    /**
     * What a node measured over the last period.
     *
     * @param oltpWaiting W_T, the transactions OLTP is serving (queued or running), on average per core
     *                    OLTP has (its slots' share of the node's cores)
     * @param freshness F, the share of the node's copied rows up to date
     * @param dispatchCpu U_C, the dispatch role's use of its share of the CPU; NaN where the threads
     *                    that dispatch are held to no share, so that a slot moved to dispatch would
     *                    bound nothing (the rules giving dispatch a slot then never fire)
     * @param oltpWaitVariance D_T, the variance of those transactions over the OLTP partitions' threads
     * @param olapCpu U_A, the OLAP role's use of its share of the CPU
     * @param olapIoWait W_A, the share of the OLAP role's running time spent off the CPU
     * @param logShippingUseful C_ML, the log-shipping slots that have work (tables with commits owed)
     * @param slots each role's slots now
     */
    public record Signals(double oltpWaiting, double freshness, double dispatchCpu, double oltpWaitVariance,
                          double olapCpu, double olapIoWait, int logShippingUseful, Map<Role, Integer> slots) {
    }

    /** What to do: move a slot {@code from} a role {@code to} another, re-split the OLTP partitions, or nothing. */
    public record Decision(State state, Action action, Role from, Role to, String why) {
        public enum Action { MOVE, RESPLIT_OLTP, NONE }

        static Decision none(State s, String why) {
            return new Decision(s, Action.NONE, null, null, why);
        }
    }

    private final Parameters p;

    public HtalPolicy(Parameters p) {
        this.p = p;
    }

    public Parameters parameters() {
        return p;
    }

    /** Algorithm 1: the state. */
    public State state(Signals s) {
        if (s.oltpWaiting() >= p.alpha()) {
            return State.S1_OLTP;
        }
        return s.freshness() <= p.beta() ? State.S2_LOG_SHIPPING : State.S3_OLAP;
    }

    /** Algorithm 2: the move in the state Algorithm 1 picks. */
    public Decision decide(Signals s) {
        State state = state(s);
        return switch (state) {
            case S1_OLTP -> {
                if (s.dispatchCpu() >= p.gamma()) {
                    yield give(state, s, Role.DISPATCH, List.of(Role.OLAP, Role.LOG_SHIPPING),
                            "dispatch CPU " + pct(s.dispatchCpu()) + " >= γ " + pct(p.gamma()));
                }
                String waits = "OLTP waiters " + round(s.oltpWaiting()) + " >= α " + round(p.alpha());
                if (s.oltpWaitVariance() >= p.delta()) {
                    yield new Decision(state, Decision.Action.RESPLIT_OLTP, null, null, waits + ", their variance "
                            + round(s.oltpWaitVariance()) + " >= δ " + round(p.delta()) + " over the partitions: re-split them");
                }
                yield oltpSlot(s, waits + ", variance " + round(s.oltpWaitVariance()) + " < δ");
            }
            case S2_LOG_SHIPPING -> {
                int ls = s.slots().get(Role.LOG_SHIPPING);
                if (ls <= s.logShippingUseful()) {
                    yield give(state, s, Role.LOG_SHIPPING, List.of(Role.OLAP, Role.DISPATCH, Role.OLTP),
                            "freshness " + pct(s.freshness()) + " <= β " + pct(p.beta()) + ", log shipping uses "
                                    + ls + " of " + s.logShippingUseful() + " useful slots");
                }
                yield Decision.none(state, "freshness " + pct(s.freshness()) + " <= β but log shipping has " + ls
                        + " slots for " + s.logShippingUseful() + " tables with work");
            }
            case S3_OLAP -> {
                if (s.dispatchCpu() >= p.gamma()) {
                    yield give(state, s, Role.DISPATCH, List.of(Role.OLTP, Role.LOG_SHIPPING, Role.OLAP),
                            "dispatch CPU " + pct(s.dispatchCpu()) + " >= γ " + pct(p.gamma()));
                }
                if (s.olapCpu() >= p.epsilon() && s.olapIoWait() <= p.zeta()) {
                    yield give(state, s, Role.OLAP, List.of(Role.OLTP, Role.LOG_SHIPPING, Role.DISPATCH),
                            "OLAP CPU " + pct(s.olapCpu()) + " >= ε " + pct(p.epsilon()) + ", I/O wait "
                                    + pct(s.olapIoWait()) + " <= ζ " + pct(p.zeta()));
                }
                yield Decision.none(state, "OLAP CPU " + pct(s.olapCpu()) + ", I/O wait " + pct(s.olapIoWait())
                        + ": no role asks for a slot");
            }
        };
    }

    /**
     * In OLTP mode, a slot for OLTP: when its waits are even over the partitions, or a re-split of
     * skewed ones moved none.
     */
    public Decision oltpSlot(Signals s, String why) {
        return give(State.S1_OLTP, s, Role.OLTP, List.of(Role.OLAP, Role.LOG_SHIPPING, Role.DISPATCH), why);
    }

    /** Gives {@code to} a slot from the first of {@code donors} with more than one. */
    private static Decision give(State state, Signals s, Role to, List<Role> donors, String why) {
        for (Role from : donors) {
            if (from != to && s.slots().get(from) > 1) {
                return new Decision(state, Decision.Action.MOVE, from, to, why);
            }
        }
        return Decision.none(state, why + ", but no role it may take a slot from has one to spare");
    }

    private static String pct(double share) {
        return Math.round(share * 1000) / 10.0 + "%";
    }

    private static String round(double v) {
        return String.valueOf(Math.round(v * 100) / 100.0);
    }
}
