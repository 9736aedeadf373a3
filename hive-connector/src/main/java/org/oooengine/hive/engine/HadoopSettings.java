package org.oooengine.hive.engine;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** Session settings that configure Hadoop: jobs of MapReduce mode, the file systems LOAD DATA reads. */
final class HadoopSettings {
    /** Session settings with these prefixes are Hadoop's (e.g. mapreduce.framework.name, fs.defaultFS). */
    static final List<String> PREFIXES = List.of("mapreduce.", "yarn.", "fs.", "dfs.", "hadoop.");

    private HadoopSettings() {
    }

    /** {@code base} with the session's Hadoop settings on top. */
    static Configuration apply(Configuration base, Map<String, String> settings) {
        Configuration conf = new Configuration(base);
        settings.forEach((key, value) -> {
            if (PREFIXES.stream().anyMatch(key::startsWith)) {
                conf.set(key, value);
            }
        });
        return conf;
    }
}
