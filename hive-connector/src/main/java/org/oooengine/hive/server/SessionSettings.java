package org.oooengine.hive.server;

import java.util.HashMap;
import java.util.Map;

/** Settings for SqlEngine.openSession, from the configuration map of an OpenSession request. */
final class SessionSettings {
    private static final String HIVECONF = "set:hiveconf:";
    private static final String HIVEVAR = "set:hivevar:";

    private SessionSettings() {
    }

    /**
     * {@code set:hiveconf:k=v} becomes {@code k=v} and {@code set:hivevar:k=v} becomes
     * {@code hivevar:k=v}, as {@code SET} statements would name them. Other keys
     * ({@code use:database}, the proxy user, driver internals) are not settings.
     */
    static Map<String, String> from(Map<String, String> configuration) {
        Map<String, String> settings = new HashMap<>();
        configuration.forEach((key, value) -> {
            if (key.startsWith(HIVECONF)) {
                settings.put(key.substring(HIVECONF.length()), value);
            } else if (key.startsWith(HIVEVAR)) {
                settings.put(key.substring("set:".length()), value);
            }
        });
        return settings;
    }
}
