package org.oooengine.hive.engine;

import java.util.List;
import org.oooengine.core.fragment.QueryMemory;
import org.oooengine.hive.security.AccessDeniedException;
import org.oooengine.optimizer.rel.PipelinePlanner;

/**
 * The engine's own settings ({@code ooo.*}) a session may {@code SET}. Every other {@code ooo.*}
 * key is refused by name: the operator's settings (catalog, endpoint, security, load directories,
 * spill space) hold for every session and would have no effect if a session stored them, and a
 * misspelt key would be stored without effect too.
 */
final class EngineSessionKeys {
    static final String PREFIX = "ooo.";
    static final List<String> KEYS = List.of(
            ExecutionModes.SETTING,
            ClusterJoinChooser.SETTING,
            PipelinePlanner.Limits.BROADCAST_SETTING,
            PipelinePlanner.Limits.BUILD_SETTING,
            PipelinePlanner.Limits.MERGE_ON_NODES_SETTING,
            PipelinePlanner.Limits.MEMORY_SETTING,
            PipelinePlanner.Limits.COORDINATOR_MEMORY_SETTING,
            QueryMemory.SPILL_SETTING,
            StatementTransaction.ATTEMPTS_SETTING);
    /** Prefixes of the coordinator's settings, so that a session's SET of one is told whose it is. */
    private static final List<String> OPERATOR_PREFIXES = List.of("ooo.security.", "ooo.endpoint.", "ooo.catalog",
            "ooo.load.", "ooo.spill.coordinator", "ooo.cluster.");

    private EngineSessionKeys() {
    }

    /** Refuses a session's {@code SET} of an engine key that is not a session setting, naming it. */
    static void check(String key) {
        if (!key.startsWith(PREFIX) || KEYS.contains(key)) {
            return;
        }
        String whose = OPERATOR_PREFIXES.stream().anyMatch(key::startsWith)
                ? "it is the operator's, for every session, set in " + SessionLimits.where()
                : "there is no such session setting";
        throw new AccessDeniedException("SET " + key + " is refused: " + whose + "; a session may set "
                + String.join(", ", KEYS));
    }

}
