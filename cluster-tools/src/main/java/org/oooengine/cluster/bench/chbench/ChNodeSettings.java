package org.oooengine.cluster.bench.chbench;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.HtalPolicy;

/** The command line's spelling of the nodes' HTAP settings: role slots and HTAL's thresholds. */
public final class ChNodeSettings {
    private static final Map<String, Role> ROLES = Map.of("oltp", Role.OLTP, "olap", Role.OLAP,
            "log-shipping", Role.LOG_SHIPPING, "dispatch", Role.DISPATCH);
    private static final Set<String> THRESHOLDS = Set.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta");

    private ChNodeSettings() {
    }

    /** {@code oltp=3,olap=3,log-shipping=1,dispatch=1}: every role, each at least one slot. */
    public static Map<Role, Integer> slots(String text) {
        Map<Role, Integer> slots = new EnumMap<>(Role.class);
        for (Map.Entry<String, String> e : pairs(text, ROLES.keySet(), "--slots").entrySet()) {
            try {
                slots.put(ROLES.get(e.getKey()), Integer.parseInt(e.getValue()));
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("--slots " + e.getKey() + " takes a whole number, not '" + e.getValue() + "'");
            }
        }
        if (slots.size() != ROLES.size()) {
            throw new IllegalArgumentException("--slots names every role: " + String.join(", ", ROLES.keySet()));
        }
        return slots;
    }

    /** {@code alpha=2,beta=0.85,...}: any of HTAL's thresholds; those not named keep the seed's. */
    public static HtalPolicy.Parameters parameters(String text) {
        HtalPolicy.Parameters seed = HtalPolicy.Parameters.SEED;
        Map<String, Double> v = new HashMap<>(Map.of("alpha", seed.alpha(), "beta", seed.beta(), "gamma", seed.gamma(),
                "delta", seed.delta(), "epsilon", seed.epsilon(), "zeta", seed.zeta()));
        if (!text.isBlank()) {
            for (Map.Entry<String, String> e : pairs(text, THRESHOLDS, "--htal").entrySet()) {
                try {
                    v.put(e.getKey(), Double.parseDouble(e.getValue()));
                } catch (NumberFormatException x) {
                    throw new IllegalArgumentException("--htal " + e.getKey() + " takes a number, not '" + e.getValue() + "'");
                }
            }
        }
        return new HtalPolicy.Parameters(v.get("alpha"), v.get("beta"), v.get("gamma"), v.get("delta"), v.get("epsilon"),
                v.get("zeta"));
    }

    private static Map<String, String> pairs(String text, Set<String> names, String option) {
        Map<String, String> out = new HashMap<>();
        for (String part : text.split(",")) {
            String[] kv = part.trim().split("=", 2);
            String key = kv[0].trim().toLowerCase(Locale.ROOT);
            if (kv.length != 2 || !names.contains(key)) {
                throw new IllegalArgumentException(option + " takes name=value pairs of " + String.join(", ",
                        new java.util.TreeSet<>(names)) + ", not '" + part.trim() + "'");
            }
            out.put(key, kv[1].trim());
        }
        return out;
    }
}
