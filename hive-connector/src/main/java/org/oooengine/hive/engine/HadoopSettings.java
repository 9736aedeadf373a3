package org.oooengine.hive.engine;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.settings.Scope;
import org.oooengine.core.settings.Setting;
import org.oooengine.core.settings.Settings;
import org.oooengine.hive.security.AccessDeniedException;

/**
 * The Hadoop configuration of a session's MapReduce jobs and of the file systems LOAD DATA reads.
 * Settings with Hadoop's prefixes come from the operator's coordinator settings and hold for
 * every session. A session may change only the job-tuning keys of {@link #SESSION_KEYS}: the
 * others choose file systems (a local path for an HDFS one), classes to instantiate, directories
 * to write and the command lines of task JVMs, so a SQL user who set them would run code and read
 * files as the coordinator.
 */
final class HadoopSettings {
    /** Settings with these prefixes are Hadoop's (e.g. mapreduce.framework.name, fs.defaultFS). */
    static final List<String> PREFIXES = List.of("mapreduce.", "mapred.", "yarn.", "fs.", "dfs.", "hadoop.");

    /**
     * What a session may SET ({@link SessionSettings}: the Hadoop keys among them), the form of
     * whose values the registry checks (no ${...} expansion, no class names). Not the sort buffer
     * nor the maximum split size: on the local job runner tasks run in the coordinator's JVM, and a
     * huge buffer or a split per byte would starve every other client.
     */
    static final SortedMap<String, Setting<?>> SESSION_KEYS = sessionKeys();

    private final Map<String, String> coordinator;

    private HadoopSettings(Map<String, String> coordinator) {
        this.coordinator = coordinator;
    }

    /** The Hadoop settings among the coordinator's. */
    static HadoopSettings fromCoordinator(Map<String, String> coordinatorSettings) {
        Map<String, String> hadoop = new TreeMap<>();
        coordinatorSettings.forEach((key, value) -> {
            if (isHadoop(key)) {
                hadoop.put(key, value);
            }
        });
        return new HadoopSettings(Map.copyOf(hadoop));
    }

    private static SortedMap<String, Setting<?>> sessionKeys() {
        SortedMap<String, Setting<?>> keys = new TreeMap<>();
        Settings.of(Scope.SESSION).stream().filter(s -> isHadoop(s.name())).forEach(s -> keys.put(s.name(), s));
        return Collections.unmodifiableSortedMap(keys);
    }

    static boolean isHadoop(String key) {
        return PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Refuses a session setting of Hadoop's that a session may not change, naming the key and where
     * the operator sets it instead. (The registry refused a value not of its key's form already.)
     */
    static void checkSessionSetting(String key, String value) {
        if (isHadoop(key) && !SESSION_KEYS.containsKey(key)) {
            throw new AccessDeniedException("SET " + key + " is refused: a session may change only the Hadoop settings "
                    + String.join(", ", SESSION_KEYS.keySet()) + "; the operator sets " + key + " for every session in "
                    + "<cluster-dir>/" + ClusterSqlEngine.SETTINGS_FILE + " or with ooo server --conf " + key + "=...");
        }
    }

    /** {@code base} with the coordinator's Hadoop settings on top, and on those the ones {@code session} may change. */
    Configuration apply(Configuration base, Map<String, String> session) {
        Configuration conf = new Configuration(base);
        coordinator.forEach(conf::set);
        session.forEach((key, value) -> {
            Setting<?> setting = SESSION_KEYS.get(key);
            if (setting != null) {
                conf.set(key, setting.normalized(value)); // a size with a unit in bytes, as Hadoop reads it
            }
        });
        return conf;
    }
}
