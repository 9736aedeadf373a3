package org.oooengine.core.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.htap.AnalyticalCopies;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.HtalPolicy;
import org.oooengine.core.store.JsonFiles;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * How a node runs its HTAP side (seed 000): how its analytical copies switch and whether they ship
 * commits, the slots of its core roles and the cores they share out, and HTAL's thresholds.
 *
 * @param slots each role's slots to start with
 * @param cores the cores the roles share out, each role its slots' share; 0 in a mode that bounds the
 *              roles: the node's share of its host, the host's cores over the nodes on it
 * @param switchEvery how often the static baseline switches copies (the seed: 120 s)
 * @param period how often HTAL's balancer decides
 * @param treesOnly whether queries read the read copy's trees alone, as the seed reads its copies,
 *                  rather than with the commits since the last switch merged in
 */
public record HtapConfig(Mode mode, Map<Role, Integer> slots, double cores, Duration switchEvery,
                         HtalPolicy.Parameters parameters, Duration period, boolean treesOnly) {
    /** How a node runs its copies and roles. */
    public enum Mode {
        /** Copies switch by freshness and at least every second; roles unbounded (the default). */
        COPIES,
        /** The seed's static baseline: fixed slots, copies switching every {@code switchEvery}. */
        STATIC,
        /** HTAL: slots moved by the balancer, copies switching when their trees' freshness drops below β. */
        HTAL,
        /** Decoupled storage without shipping: fixed slots, copies never fed. */
        NO_SHIPPING
    }

    /** The seed's split of 96 cores (OLTP 48, OLAP 46, LS 1, CDP 1) scaled to 8 slots, a whole one for each small role. */
    public static final Map<Role, Integer> SEED_SLOTS = Map.of(Role.OLTP, 3, Role.OLAP, 3, Role.LOG_SHIPPING, 1,
            Role.DISPATCH, 1);
    public static final HtapConfig DEFAULT = new HtapConfig(Mode.COPIES, SEED_SLOTS, 0, Duration.ofSeconds(120),
            HtalPolicy.Parameters.SEED, Duration.ofSeconds(1));

    /** A mode whose queries read the copies' deltas too. */
    public HtapConfig(Mode mode, Map<Role, Integer> slots, double cores, Duration switchEvery,
                      HtalPolicy.Parameters parameters, Duration period) {
        this(mode, slots, cores, switchEvery, parameters, period, false);
    }

    public HtapConfig {
        slots = Map.copyOf(slots);
        new CoreRoles(slots); // checks them
        if (cores < 0 || period.isNegative() || period.isZero() || switchEvery.isNegative() || switchEvery.isZero()) {
            throw new IllegalArgumentException("an HTAP mode needs cores >= 0 and positive periods: " + cores + ", "
                    + switchEvery + ", " + period);
        }
    }

    /** Whether the roles are held to their slots' share of the cores (every mode but the default). */
    boolean boundsRoles() {
        return mode != Mode.COPIES;
    }

    /** This mode with the roles sharing out {@code shared} cores. */
    HtapConfig sharing(double shared) {
        return new HtapConfig(mode, slots, shared, switchEvery, parameters, period, treesOnly);
    }

    /** When this mode's copies switch, and whether they ship. */
    AnalyticalCopies.Rule rule() {
        AnalyticalCopies.Rule rule = switch (mode) {
            case COPIES -> new AnalyticalCopies.Rule(Duration.ofSeconds(1), parameters.beta(), true);
            case STATIC -> AnalyticalCopies.Rule.every(switchEvery);
            case HTAL -> AnalyticalCopies.Rule.belowFreshness(parameters.beta());
            case NO_SHIPPING -> AnalyticalCopies.Rule.frozen();
        };
        return treesOnly ? rule.readingTreesOnly() : rule;
    }

    void write(PayloadWriter w) {
        w.put(mode.ordinal());
        for (Role r : Role.values()) {
            w.putInt(slots.get(r));
        }
        HtalPolicy.Parameters p = parameters;
        for (double d : new double[] {cores, p.alpha(), p.beta(), p.gamma(), p.delta(), p.epsilon(), p.zeta()}) {
            w.putLong(Double.doubleToLongBits(d));
        }
        w.putLong(switchEvery.toMillis()).putLong(period.toMillis()).put(treesOnly ? 1 : 0);
    }

    static HtapConfig read(PayloadReader r) {
        int m = r.get();
        if (m < 0 || m >= Mode.values().length) {
            throw new IllegalArgumentException("no HTAP mode numbered " + m);
        }
        Map<Role, Integer> slots = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            slots.put(role, r.getInt());
        }
        double[] d = new double[7];
        for (int i = 0; i < d.length; i++) {
            d[i] = Double.longBitsToDouble(r.getLong());
        }
        return new HtapConfig(Mode.values()[m], slots, d[0], Duration.ofMillis(r.getLong()),
                new HtalPolicy.Parameters(d[1], d[2], d[3], d[4], d[5], d[6]), Duration.ofMillis(r.getLong()), r.get() == 1);
    }

    /** The file, in the transactional tables' directory, where a node keeps the mode it was given. */
    static final String FILE = "htap-mode.json";

    /** This mode as a node keeps it: what a person reading the file understands. */
    private record Saved(Mode mode, Map<Role, Integer> slots, double coresShared, long switchEveryMillis,
                         HtalPolicy.Parameters htal, long balanceEveryMillis, boolean treesOnly) {
    }

    /** Keeps this mode in {@code dir}, so that the node runs in it again after a restart. */
    void save(Path dir) {
        JsonFiles.writeAtomically(dir.resolve(FILE), new Saved(mode, new java.util.TreeMap<>(slots), cores,
                switchEvery.toMillis(), parameters, period.toMillis(), treesOnly));
    }

    /** The mode kept in {@code dir}; empty when none was. */
    static Optional<HtapConfig> load(Path dir) {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            Saved s = new ObjectMapper().readValue(file.toFile(), Saved.class);
            return Optional.of(new HtapConfig(s.mode(), s.slots(), s.coresShared(), Duration.ofMillis(s.switchEveryMillis()),
                    s.htal(), Duration.ofMillis(s.balanceEveryMillis()), s.treesOnly()));
        } catch (IOException | RuntimeException e) {
            throw new UncheckedIOException(new IOException("cannot read the node's HTAP mode from " + file + ": "
                    + e.getMessage(), e));
        }
    }
}
