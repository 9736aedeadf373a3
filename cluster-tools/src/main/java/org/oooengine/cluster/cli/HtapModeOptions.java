package org.oooengine.cluster.cli;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.oooengine.core.cluster.HtapConfig;
import org.oooengine.core.htap.CoreRoles;
import org.oooengine.core.htap.CoreRoles.Role;
import org.oooengine.core.htap.HtalPolicy;
import picocli.CommandLine.Option;

/**
 * The nodes' HTAP settings as {@code ooo cluster htap} and {@code ooo bench chbench} spell them:
 * the core roles' slots, the cores they share out, static's switching period, HTAL's thresholds
 * and period, and whether queries read the copies' trees alone.
 */
final class HtapModeOptions {
    private static final Map<String, Role> ROLES = Map.of("oltp", Role.OLTP, "olap", Role.OLAP,
            "log-shipping", Role.LOG_SHIPPING, "dispatch", Role.DISPATCH);
    private static final Set<String> THRESHOLDS = Set.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta");
    /** The flags that set the roles, the switching and HTAL: only the modes static, htal and no-shipping use them. */
    static final java.util.List<String> ROLE_FLAGS = java.util.List.of("--slots", "--cores-per-node", "--switch-every",
            "--htal", "--balance-every");
    /** Every flag of these settings. */
    static final java.util.List<String> FLAGS = java.util.List.of("--slots", "--cores-per-node", "--switch-every",
            "--htal", "--balance-every", "--trees-only");

    /** The first of {@code flags} given on {@code line}, if any. */
    static java.util.Optional<String> given(picocli.CommandLine line, java.util.List<String> flags) {
        return flags.stream().filter(f -> line.getParseResult().hasMatchedOption(f)).findFirst();
    }

    @Option(names = "--slots", defaultValue = "oltp=3,olap=3,log-shipping=1,dispatch=1", paramLabel = "ROLE=N,...",
            description = "each node's core-role slots to start with, for static, htal and no-shipping: the seed's "
                    + "96-core split scaled to 8 (default: ${DEFAULT-VALUE})")
    String slots;

    @Option(names = "--cores-per-node", paramLabel = "N",
            description = "the cores each node's roles share out, each role its slots' share (default: each node's "
                    + "host's cores over the cluster's nodes on that host)")
    Double coresPerNode;

    @Option(names = "--switch-every", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how often static switches the copies (default: the seed's 120 s; 30 s in bench chbench, "
                    + "scaled to its phases)")
    Double switchEvery;

    @Option(names = "--htal", defaultValue = "", paramLabel = "NAME=VALUE,...",
            description = "HTAL's thresholds alpha, beta, gamma, delta, epsilon, zeta; those not given keep the seed's "
                    + "2, 0.85, 0.6, 8, 0.8, 0.1")
    String htal;

    @Option(names = "--trees-only",
            description = "queries read the read copy's trees alone, as the seed reads its copies: the commits since "
                    + "the last switch unseen until the next (by default they are merged in)")
    boolean treesOnly;

    @Option(names = "--balance-every", defaultValue = "1s", paramLabel = "DURATION", converter = Units.InSeconds.class,
            description = "how often HTAL's balancer decides on each node (default: ${DEFAULT-VALUE})")
    double balanceEvery;

    /**
     * The nodes' settings in {@code mode}, static switching every {@code switchByDefault} unless
     * given; without --cores-per-node each node works out its share of its host.
     *
     * @throws IllegalArgumentException naming the flag whose value is wrong
     */
    HtapConfig config(HtapConfig.Mode mode, Duration switchByDefault) {
        Map<Role, Integer> roleSlots = slots(slots);
        new CoreRoles(roleSlots); // every role at least one slot
        if (coresPerNode != null && coresPerNode <= 0) {
            throw new IllegalArgumentException("--cores-per-node must be positive, not " + coresPerNode);
        }
        if ((switchEvery != null && switchEvery <= 0) || balanceEvery <= 0) {
            throw new IllegalArgumentException("--switch-every and --balance-every must be positive");
        }
        double cores = coresPerNode != null ? coresPerNode : 0;
        Duration switching = switchEvery != null ? Duration.ofMillis((long) (switchEvery * 1000)) : switchByDefault;
        return new HtapConfig(mode, roleSlots, cores, switching, parameters(htal),
                Duration.ofMillis((long) (balanceEvery * 1000)), treesOnly);
    }

    /** {@code oltp=3,olap=3,log-shipping=1,dispatch=1}: every role, each at least one slot. */
    static Map<Role, Integer> slots(String text) {
        Map<Role, Integer> out = new EnumMap<>(Role.class);
        for (Map.Entry<String, String> e : pairs(text, ROLES.keySet(), "--slots").entrySet()) {
            try {
                out.put(ROLES.get(e.getKey()), Integer.parseInt(e.getValue()));
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("--slots " + e.getKey() + " takes a whole number, not '" + e.getValue() + "'");
            }
        }
        if (out.size() != ROLES.size()) {
            throw new IllegalArgumentException("--slots names every role: " + String.join(", ", ROLES.keySet()));
        }
        return out;
    }

    /** {@code alpha=2,beta=0.85,...}: any of HTAL's thresholds; those not named keep the seed's. */
    static HtalPolicy.Parameters parameters(String text) {
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
                        new TreeSet<>(names)) + ", not '" + part.trim() + "'");
            }
            out.put(key, kv[1].trim());
        }
        return out;
    }
}
