package org.oooengine.hive.engine;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
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
     * The most reducers a session may ask for: Hive's own default bound ({@code hive.exec.reducers.max}).
     * Each reducer is a task with its buffers; millions of them would starve the coordinator.
     */
    static final int MAX_REDUCES = 1009;
    private static final String REDUCES = "mapreduce.job.reduces";

    private static final Pattern COUNT = Pattern.compile("[0-9]{1,9}");
    private static final Pattern BYTES = Pattern.compile("[0-9]{1,18}");
    private static final Pattern BOOLEAN = Pattern.compile("(?i)true|false");

    /**
     * What a session may SET, and the form of its value (no ${...} expansion, no class names).
     * Not the sort buffer nor the maximum split size: on the local job runner tasks run in the
     * coordinator's JVM, and a huge buffer or a split per byte would starve every other client.
     */
    static final SortedMap<String, Pattern> SESSION_KEYS = Collections.unmodifiableSortedMap(new TreeMap<>(Map.of(
            REDUCES, COUNT,
            "mapreduce.job.ubertask.enable", BOOLEAN,
            "mapreduce.map.speculative", BOOLEAN,
            "mapreduce.reduce.speculative", BOOLEAN,
            "mapreduce.map.output.compress", BOOLEAN,
            "mapreduce.input.fileinputformat.split.minsize", BYTES)));

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

    static boolean isHadoop(String key) {
        return PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * Refuses a session setting of Hadoop's that a session may not change, or a value not of its
     * key's form, naming the key and where the operator sets it instead.
     */
    static void checkSessionSetting(String key, String value) {
        if (!isHadoop(key)) {
            return;
        }
        Pattern form = SESSION_KEYS.get(key);
        if (form == null) {
            throw new AccessDeniedException("SET " + key + " is refused: a session may change only the Hadoop settings "
                    + String.join(", ", SESSION_KEYS.keySet()) + "; the operator sets " + key + " for every session in "
                    + "<cluster-dir>/" + ClusterSqlEngine.SETTINGS_FILE + " or with ooo server --conf " + key + "=...");
        }
        if (value != null && !form.matcher(value).matches()) {
            throw new AccessDeniedException("SET " + key + " is refused: '" + value + "' is not "
                    + (form == BOOLEAN ? "true or false" : "a whole number"));
        }
        if (REDUCES.equals(key) && value != null && Long.parseLong(value) > MAX_REDUCES) {
            throw new AccessDeniedException("SET " + key + "=" + value + " is refused: a statement runs at most "
                    + MAX_REDUCES + " reducers");
        }
    }

    /** {@code base} with the coordinator's Hadoop settings on top, and on those the ones {@code session} may change. */
    Configuration apply(Configuration base, Map<String, String> session) {
        Configuration conf = new Configuration(base);
        coordinator.forEach(conf::set);
        session.forEach((key, value) -> {
            if (SESSION_KEYS.containsKey(key)) {
                conf.set(key, value);
            }
        });
        return conf;
    }
}
