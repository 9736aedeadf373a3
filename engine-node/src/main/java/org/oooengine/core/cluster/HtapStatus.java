package org.oooengine.core.cluster;

import java.util.EnumMap;
import java.util.Map;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * A node's HTAP mode as it runs: its roles' slots now, and how many times HTAL's balancer decided
 * and moved a slot, with its last decision and why.
 */
public record HtapStatus(HtapConfig.Mode mode, Map<Role, Integer> slots, long decisions, long moves, String lastDecision) {
    public HtapStatus {
        slots = Map.copyOf(slots);
    }

    void write(PayloadWriter w) {
        w.put(mode.ordinal());
        for (Role r : Role.values()) {
            w.putInt(slots.get(r));
        }
        w.putLong(decisions).putLong(moves).putString(lastDecision);
    }

    static HtapStatus read(PayloadReader r) {
        HtapConfig.Mode mode = HtapConfig.Mode.values()[r.get()];
        Map<Role, Integer> slots = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            slots.put(role, r.getInt());
        }
        return new HtapStatus(mode, slots, r.getLong(), r.getLong(), r.getString());
    }
}
