package org.oooengine.hive.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.oooengine.core.cluster.NodeService;
import org.oooengine.core.cluster.RuntimeLimits;
import org.oooengine.core.fragment.SpillSpace;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.core.settings.CoordinatorSettings;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.settings.Setting;
import org.oooengine.core.settings.Settings;

/**
 * The operator's caps on the session settings that are resource limits: what a statement's
 * operators may hold in memory on each node ({@code ooo.query.max-memory-per-node}) and on the coordinator
 * ({@code ooo.query.max-memory}), what they may spill ({@code ooo.spill.max-bytes}), and how many times a conflicting
 * statement on transactional tables runs ({@code ooo.transaction.attempts}). The operator's coordinator setting
 * of the same key ({@value ClusterSqlEngine#SETTINGS_FILE}, {@code ooo server --conf}) is both
 * the most a session may set and what a session that sets nothing (or 0) gets. A session may
 * {@code SET} a limit lower, never higher: a higher value is refused, naming the setting and the
 * cap. An admin user ({@link org.oooengine.hive.security.AccessControl#isAdmin}) may go past the
 * coordinator's caps only where the operator says so with {@code ooo.security.admins-exceed-caps}{@code =true}.
 *
 * <p>The nodes hold to caps of their own whatever they are asked ({@link NodeService.Caps}); a
 * {@code SET} of {@code ooo.query.max-memory-per-node} above the smallest of them is refused too, for admins
 * as well, since no node would grant it.
 *
 * <p>Not caps: {@code ooo.join.broadcast-max-bytes} and {@code ooo.join.build-max-bytes} choose
 * plans; what the operators they choose hold is bounded by the memory and spill limits (and a
 * node keeps at most a fixed amount of broadcast and shuffled rows), so raising them costs no
 * more than those limits allow.
 */
final class SessionLimits {
    static final String MEMORY_PER_NODE = SessionSettings.QUERY_MAX_MEMORY_PER_NODE.name();
    static final String MEMORY = SessionSettings.QUERY_MAX_MEMORY.name();
    static final String SPILL = SessionSettings.SPILL_MAX_BYTES.name();
    static final String ATTEMPTS = SessionSettings.TRANSACTION_ATTEMPTS.name();
    static final String ADMINS_EXCEED_CAPS = CoordinatorSettings.SECURITY_ADMINS_EXCEED_CAPS.name();
    /** The limits, each a size or a count. */
    private static final List<Setting<Long>> LIMITS = List.of(SessionSettings.QUERY_MAX_MEMORY_PER_NODE,
            SessionSettings.QUERY_MAX_MEMORY, SessionSettings.SPILL_MAX_BYTES, SessionSettings.TRANSACTION_ATTEMPTS);
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
        boolean exceed = CoordinatorSettings.SECURITY_ADMINS_EXCEED_CAPS.get(settings);
        Setting<Long> spillSetting = CoordinatorSettings.SPILL_COORDINATOR_MAX_BYTES;
        long spillSpace = spillSetting.find(settings)
                .orElseGet(() -> SpillSpace.defaultMaxBytes(RuntimeLimits.coordinatorSpillDirectory()));
        SessionLimits limits = new SessionLimits(exceed, nodeMemoryCap,
                new SpillSpace("the coordinator", spillSpace, spillSetting.name() + " in " + where()));
        limits.cap(settings, SessionSettings.QUERY_MAX_MEMORY_PER_NODE, Long.MAX_VALUE); // unset: the nodes' own caps alone
        limits.cap(settings, SessionSettings.QUERY_MAX_MEMORY, Runtime.getRuntime().maxMemory() / 4);
        limits.cap(settings, SessionSettings.SPILL_MAX_BYTES, SpillSpace.DEFAULT_QUERY_MAX_BYTES);
        limits.cap(settings, SessionSettings.TRANSACTION_ATTEMPTS, MAX_ATTEMPTS);
        return limits;
    }

    /** The operator's cap of {@code limit}, 1 or more ({@code otherwise} when not set); its form is the registry's. */
    private void cap(Map<String, String> settings, Setting<Long> limit, long otherwise) {
        Optional<Long> set = limit.find(settings);
        set.ifPresent(v -> {
            if (v < 1) {
                throw new IllegalArgumentException(limit.name() + " is '" + settings.get(limit.name())
                        + "' in the coordinator's settings; use 1 or more");
            }
            operatorValues.put(limit.name(), v);
        });
        caps.put(limit.name(), set.orElse(otherwise));
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
            asked = limit(key).parse(value);
        } catch (IllegalArgumentException e) {
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
            if (v == null || isZero(key, v)) {
                out.put(key, Long.toString(value));
            }
        });
        if (!out.containsKey(ATTEMPTS) && caps.get(ATTEMPTS) < StatementTransaction.DEFAULT_ATTEMPTS) {
            out.put(ATTEMPTS, Long.toString(caps.get(ATTEMPTS)));
        }
        return out;
    }

    private static boolean isZero(String key, String v) {
        try {
            return limit(key).parse(v) == 0;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Setting<Long> limit(String key) {
        return LIMITS.stream().filter(s -> s.names(key)).findFirst().orElseThrow();
    }

    private static String defaultCap(String key) {
        return MEMORY.equals(key) ? "a quarter of the coordinator's heap"
                : SPILL.equals(key) ? "16 GiB" : "the most it may be";
    }

    static String where() {
        return Settings.coordinatorWhere();
    }

    private static String size(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }
}
