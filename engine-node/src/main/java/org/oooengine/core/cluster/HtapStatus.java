package org.oooengine.core.cluster;

import java.util.EnumMap;
import java.util.Map;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A node's HTAP mode as it runs: the settings it was given, the cores its roles share out (its
 * host's share when the settings give none), its roles' slots now, and how many times HTAL's
 * balancer decided and moved a slot, with its last decision and why.
 */
public record HtapStatus(HtapConfig config, double coresShared, Map<Role, Integer> slots, long decisions, long moves,
                         String lastDecision) {
    public HtapStatus {
        slots = Map.copyOf(slots);
    }

    public HtapConfig.Mode mode() {
        return config.mode();
    }

    void write(PayloadWriter w) {
        config.write(w);
        w.putLong(Double.doubleToLongBits(coresShared));
        for (Role r : Role.values()) {
            w.putInt(slots.get(r));
        }
        w.putLong(decisions).putLong(moves).putString(lastDecision);
    }

    static HtapStatus read(PayloadReader r) {
        HtapConfig config = HtapConfig.read(r);
        double cores = Double.longBitsToDouble(r.getLong());
        Map<Role, Integer> slots = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            slots.put(role, r.getInt());
        }
        return new HtapStatus(config, cores, slots, r.getLong(), r.getLong(), r.getString());
    }
}
