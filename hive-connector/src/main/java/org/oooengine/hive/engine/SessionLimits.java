package org.oooengine.hive.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.optimizer.rel.PipelinePlanner;

/**
 * The operator's caps on the session settings that are resource limits: what a statement's
 * operators may hold in memory on each node ({@value #MEMORY_PER_NODE}) and on the coordinator
 * ({@value #MEMORY}), what they may spill ({@value #SPILL}), and how many times a conflicting
 * statement on transactional tables runs ({@value #ATTEMPTS}). The operator's coordinator setting
 * of the same key ({@value ClusterSqlEngine#SETTINGS_FILE}, {@code ooo server --conf}) is both
 * the most a session may set and what a session that sets nothing (or 0) gets. A session may
 * {@code SET} a limit lower, never higher: a higher value is refused, naming the setting and the
 * cap. An admin user ({@link org.oooengine.hive.security.AccessControl#isAdmin}) may go past the
 * coordinator's caps only where the operator says so with {@value #ADMINS_EXCEED_CAPS}{@code =true}.
 *
 * <p>The nodes hold to caps of their own whatever they are asked ({@link NodeService.Caps}); a
 * {@code SET} of {@value #MEMORY_PER_NODE} above the smallest of them is refused too, for admins
 * as well, since no node would grant it.
 *
 * <p>Not caps: {@code ooo.join.broadcast-max-bytes} and {@code ooo.join.build-max-bytes} choose
 * plans; what the operators they choose hold is bounded by the memory and spill limits (and a
 * node keeps at most a fixed amount of broadcast and shuffled rows), so raising them costs no
 * more than those limits allow.
 */
final class SessionLimits {
    static final String MEMORY_PER_NODE = PipelinePlanner.Limits.MEMORY_SETTING;
    static final String MEMORY = PipelinePlanner.Limits.COORDINATOR_MEMORY_SETTING;
    static final String SPILL = PipelinePlanner.Limits.SPILL_SETTING;
    static final String ATTEMPTS = StatementTransaction.ATTEMPTS_SETTING;
    /** Coordinator setting: whether admin users may set limits past the coordinator's caps (default false). */
    static final String ADMINS_EXCEED_CAPS = "ooo.security.admins-exceed-caps";
    /**
     * Coordinator setting: the disk the spill files of all the coordinator's statements may take
     * together (default: half the space free under the system's temporary directory when the
     * engine opens).
     */
    static final String COORDINATOR_SPILL_SPACE = "ooo.spill.coordinator-max-bytes";
    /** The most attempts a session may ask when the operator caps none: the bound the setting always had. */
    static final int MAX_ATTEMPTS = 100;

    /** The smallest per-query memory cap of the cluster's nodes, and whose it is. */
    record NodeCap(String node, long bytes) {
    }

    /** The caps by setting, in bytes or attempts. */
    private final Map<String, Long> caps = new LinkedHashMap<>();
    /** The settings whose cap the operator set, and so the default of a session that sets none. */
    private final Map<String, Long> operatorValues = new LinkedHashMap<>();
    private final boolean adminsExceedCaps;
    private final Supplier<Optional<NodeCap>> nodeMemoryCap;
    private final SpillSpace coordinatorSpill;

    private SessionLimits(boolean adminsExceedCaps, Supplier<Optional<NodeCap>> nodeMemoryCap,
                          SpillSpace coordinatorSpill) {
        this.adminsExceedCaps = adminsExceedCaps;
        this.nodeMemoryCap = nodeMemoryCap;
        this.coordinatorSpill = coordinatorSpill;
    }

    /**
     * The caps the coordinator's {@code settings} set, and the defaults for those they do not;
     * {@code nodeMemoryCap} tells the nodes' own cap when a session asks for more memory per node
     * (empty when it cannot be told: the nodes still hold to it). A value that is not a count is
     * refused, naming the setting.
     */
    static SessionLimits fromSettings(Map<String, String> settings, Supplier<Optional<NodeCap>> nodeMemoryCap) {
        String exceed = settings.getOrDefault(ADMINS_EXCEED_CAPS, "false").strip().toLowerCase(Locale.ROOT);
        if (!exceed.equals("true") && !exceed.equals("false")) {
            throw new IllegalArgumentException(ADMINS_EXCEED_CAPS + " is '" + exceed + "'; use true or false");
        }
        long spillSpace = operatorBytes(settings, COORDINATOR_SPILL_SPACE)
                .orElseGet(() -> SpillSpace.defaultMaxBytes(PipelinePlanner.Limits.coordinatorSpillDirectory()));
        SessionLimits limits = new SessionLimits(exceed.equals("true"), nodeMemoryCap,
                new SpillSpace("the coordinator", spillSpace, COORDINATOR_SPILL_SPACE + " in " + where()));
        limits.cap(settings, MEMORY_PER_NODE, Long.MAX_VALUE); // unset: the nodes' own caps alone
        limits.cap(settings, MEMORY, Runtime.getRuntime().maxMemory() / 4);
        limits.cap(settings, SPILL, SpillSpace.DEFAULT_QUERY_MAX_BYTES);
        limits.cap(settings, ATTEMPTS, MAX_ATTEMPTS);
        if (limits.caps.get(ATTEMPTS) < 1 || limits.caps.get(ATTEMPTS) > MAX_ATTEMPTS) {
            throw new IllegalArgumentException(ATTEMPTS + " is " + limits.caps.get(ATTEMPTS)
                    + " in the coordinator's settings; use a number from 1 to " + MAX_ATTEMPTS);
        }
        return limits;
    }

    private void cap(Map<String, String> settings, String key, long otherwise) {
        Optional<Long> set = operatorBytes(settings, key);
        set.ifPresent(v -> operatorValues.put(key, v));
        caps.put(key, set.orElse(otherwise));
    }

    /** A coordinator setting of a count, 1 or more; empty when not set. */
    private static Optional<Long> operatorBytes(Map<String, String> settings, String key) {
        String v = settings.get(key);
        if (v == null) {
            return Optional.empty();
        }
        try {
            long n = Long.parseLong(v.strip());
            if (n > 0) {
                return Optional.of(n);
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(key + " is '" + v + "' in the coordinator's settings; use a number, 1 or more");
    }

    /** The disk the spill files of all the coordinator's statements may take together. */
    SpillSpace coordinatorSpill() {
        return coordinatorSpill;
    }

    /** The cap of a limit setting; empty for a setting that is not one. */
    Optional<Long> capOf(String key) {
        return Optional.ofNullable(caps.get(key));
    }

    /**
     * Refuses a session's {@code SET key=value} of a limit above its cap (unless {@code admin} and the operator lets admins exceed the caps). A value
     * that is not a number passes here: the setting's own check refuses it.
     */
    void check(String key, String value, boolean admin) {
        Long cap = caps.get(key);
        if (cap == null || value == null) {
            return;
        }
        long asked;
        try {
            asked = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return;
        }
        if (asked <= 0) {
            return; // 0 is the default, which is within the cap; below 0 is refused by the setting's own check
        }
        if (asked > cap && !(admin && adminsExceedCaps)) {
            throw new AccessDeniedException("SET " + key + "=" + asked + " is refused: " + key + " is capped at " + cap
                    + (ATTEMPTS.equals(key) ? "" : " bytes (" + size(cap) + ")")
                    + (operatorValues.containsKey(key) ? " by the operator, in " + where()
                            : " by default (" + defaultCap(key) + "; the operator sets the cap in " + where() + ")")
                    + "; a session may set it lower, not higher" + (adminsExceedCaps ? " (only admin users may)" : ""));
        }
        if (MEMORY_PER_NODE.equals(key)) {
            nodeMemoryCap.get().filter(n -> asked > n.bytes()).ifPresent(n -> {
                throw new AccessDeniedException("SET " + key + "=" + asked + " is refused: node " + n.node()
                        + " grants a query at most " + n.bytes() + " bytes (" + size(n.bytes()) + ", "
                        + NodeService.MEMORY_CAP_FLAG + "); a session may set it lower, not higher");
            });
        }
    }

    /**
     * The settings a statement of a session runs with: the session's, and for each limit it does
     * not set (or sets to 0) the value the operator set, if any.
     */
    Map<String, String> effective(Map<String, String> session) {
        Map<String, String> out = new LinkedHashMap<>(session);
        operatorValues.forEach((key, value) -> {
            String v = session.get(key);
            if (v == null || isZero(v)) {
                out.put(key, Long.toString(value));
            }
        });
        if (!out.containsKey(ATTEMPTS) && caps.get(ATTEMPTS) < StatementTransaction.DEFAULT_ATTEMPTS) {
            out.put(ATTEMPTS, Long.toString(caps.get(ATTEMPTS)));
        }
        return out;
    }

    private static boolean isZero(String v) {
        try {
            return Long.parseLong(v.strip()) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String defaultCap(String key) {
        return switch (key) {
            case MEMORY -> "a quarter of the coordinator's heap";
            case SPILL -> "16 GiB";
            default -> "the most it may be";
        };
    }

    static String where() {
        return "<cluster-dir>/" + ClusterSqlEngine.SETTINGS_FILE + " or with ooo server --conf";
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
