package org.oooengine.core.settings;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The registry of every setting the engine reads: the session's ({@link SessionSettings}), the
 * coordinator's ({@link CoordinatorSettings}), the tables' ({@link TableProperties}) and the keys
 * of its MapReduce jobs ({@link JobKeys}). A key of the engine's ({@value #PREFIX}) that is not
 * registered, or is given where it does not belong, is refused naming the nearest registered
 * name; a malformed value is refused naming what was expected. docs/configuration.md is written
 * from it ({@link ConfigurationDoc}).
 */
public final class Settings {
    /** The engine's own keys start with this. */
    public static final String PREFIX = "ooo.";
    /** The coordinator's settings file, in the cluster directory. */
    public static final String COORDINATOR_FILE = "coordinator.properties";

    private static final List<Setting<?>> ALL = Stream.of(SessionSettings.all(), CoordinatorSettings.all(),
            TableProperties.all(), JobKeys.all()).flatMap(List::stream).toList();

    private Settings() {
    }

    /** Every setting, sessions' first, in the order of the documentation. */
    public static List<Setting<?>> all() {
        return ALL;
    }

    /** The settings of {@code scope}, in the order of the documentation. */
    public static List<Setting<?>> of(Scope scope) {
        return ALL.stream().filter(s -> s.in(scope)).toList();
    }

    /** The setting {@code key} is (or is one of the family of); empty for a key the registry does not know. */
    public static Optional<Setting<?>> find(String key) {
        return ALL.stream().filter(s -> s.names(key)).findFirst();
    }

    /** Where the operator gives coordinator settings, as refusals name it. */
    public static String coordinatorWhere() {
        return "<cluster-dir>/" + COORDINATOR_FILE + " or with ooo server --conf";
    }

    /**
     * The registered name of a session or coordinator setting nearest {@code key} by edit distance
     * (a swap of two neighbouring letters counts one), the first declared among equals.
     */
    public static String nearest(String key) {
        return ALL.stream().filter(s -> s.in(Scope.SESSION) || s.in(Scope.COORDINATOR))
                .min(Comparator.comparingInt(s -> distance(key, s.name())))
                .map(Setting::name).orElseThrow();
    }

    /**
     * Refuses a session's {@code SET key=value} (value null: {@code SET key} alone is not checked
     * for a value) of a registered setting that is not the session's, of an engine key ({@value #PREFIX})
     * that is not registered, or of a malformed value; the message names the key, and the nearest
     * registered name or the expected value. A key neither registered nor the engine's passes
     * (Hive's own settings, which tools set): it is returned empty.
     *
     * @throws IllegalArgumentException the refusal, starting {@code SET key is refused: }
     */
    public static Optional<Setting<?>> checkSession(String key, String value) {
        Optional<Setting<?>> found = find(key);
        if (found.isEmpty()) {
            if (key.startsWith(PREFIX)) {
                throw new IllegalArgumentException("SET " + key + " is refused: there is no such session setting; did you "
                        + "mean " + nearest(key) + "? A session may set " + of(Scope.SESSION).stream().map(Setting::name)
                        .filter(n -> n.startsWith(PREFIX)).collect(Collectors.joining(", ")));
            }
            return found;
        }
        Setting<?> s = found.get();
        if (!s.in(Scope.SESSION)) {
            throw new IllegalArgumentException("SET " + key + " is refused: it is " + whose(s) + "; see docs/configuration.md");
        }
        if (value != null) {
            try {
                s.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("SET " + key + "=" + value + " is refused: " + e.getMessage(), e);
            }
        }
        return found;
    }

    /**
     * Refuses coordinator settings ({@value #COORDINATOR_FILE}, {@code ooo server --conf}) with an
     * engine key that is not registered (naming the nearest registered name), one that is not a
     * coordinator setting, or a malformed value. Other keys (Hadoop's, Hive's) pass.
     *
     * @throws IllegalArgumentException naming the key
     */
    public static void checkCoordinator(Map<String, String> settings) {
        settings.forEach((key, value) -> {
            Optional<Setting<?>> found = find(key);
            if (found.isEmpty()) {
                if (key.startsWith(PREFIX)) {
                    throw new IllegalArgumentException("unknown setting " + key + " in the coordinator's settings; did you "
                            + "mean " + nearest(key) + "? (docs/configuration.md lists them)");
                }
                return;
            }
            Setting<?> s = found.get();
            if (!s.in(Scope.COORDINATOR)) {
                throw new IllegalArgumentException(key + " is not a coordinator setting: it is " + whose(s)
                        + "; see docs/configuration.md");
            }
            s.parse(value);
        });
    }

    private static String whose(Setting<?> s) {
        return switch (s.home()) {
            case SESSION -> "a session's, set with SET " + s.name() + "=...";
            case COORDINATOR -> "the operator's, for every session, set in " + coordinatorWhere();
            case TABLE -> "a table property, given in TBLPROPERTIES";
            case JOB -> "a key the engine writes into its MapReduce jobs";
        };
    }

    /** The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
