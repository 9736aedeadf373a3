package org.oooengine.hive.files;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.sql.SqlException;

/**
 * How a statement's scans of files share their splits out among the nodes: the pattern, and
 * for measurement the nodes given more than their share when splits are assigned (a node's
 * weight: it gets that many times the bytes of a node of weight 1); and whether the nodes read
 * them through their caches of files' splits ({@code cached}) or from the files alone.
 */
public record SplitScheduling(FileReads.Scheduling pattern, Map<String, Double> weights, boolean cached) {
    /** Work stealing, no node weighted, through the nodes' caches. */
    public static final SplitScheduling DEFAULT = new SplitScheduling(FileReads.Scheduling.STEALING, Map.of(), true);

    public SplitScheduling {
        weights = Map.copyOf(weights);
    }

    /** The same, read through the nodes' caches or not as {@code through} says ({@code ooo.files.cache}). */
    public SplitScheduling cached(boolean through) {
        return new SplitScheduling(pattern, weights, through);
    }

    /** From the session's {@code ooo.files.scheduling} and {@code ooo.files.skew}; a malformed skew is refused naming it. */
    public static SplitScheduling of(String pattern, String skew) {
        Map<String, Double> weights = new LinkedHashMap<>();
        for (String pair : skew.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] kv = pair.split("=");
            double factor;
            try {
                factor = kv.length == 2 ? Double.parseDouble(kv[1].strip()) : Double.NaN;
            } catch (NumberFormatException e) {
                factor = Double.NaN;
            }
            if (!(factor > 0) || Double.isInfinite(factor)) {
                throw new SqlException(SqlException.SYNTAX, "ooo.files.skew: '" + pair.strip()
                        + "' is not node=factor with a positive factor (e.g. n1=2)");
            }
            weights.put(kv[0].strip(), factor);
        }
        return new SplitScheduling(FileReads.Scheduling.valueOf(pattern.toUpperCase(Locale.ROOT)), weights, true);
    }

    double weight(String node) {
        return weights.getOrDefault(node, 1.0);
    }
}
