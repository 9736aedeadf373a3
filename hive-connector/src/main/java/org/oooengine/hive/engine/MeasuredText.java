package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.oooengine.core.fragment.PartitionPipeline.Summary;
import org.oooengine.core.units.Sizes;
import org.oooengine.hive.sql.exec.IndexJoinRunner;
import org.oooengine.hive.sql.exec.OperatorFigures;
import org.oooengine.hive.sql.exec.TableReader;

/**
 * EXPLAIN ANALYZE's figures of one operator, after its plan line: its rows and time; what an
 * operator of the coordinator held and spilled there; what a shuffle's producers sent; what the
 * nodes of a pipeline read, held, spilled and sent, with a line per node below where the nodes
 * differ, which is what skew looks like.
 */
final class MeasuredText {
    /** Nodes differ when one's figure is more than this share above another's (and more than the noise floor). */
    private static final double SKEW = 1.25;
    private static final long ROWS_FLOOR = 1_000;
    private static final long NANOS_FLOOR = 10_000_000L;
    private static final long BYTES_FLOOR = Sizes.MIB;

    private MeasuredText() {
    }

    /** The text after the operator's line; a line per node follows a newline where the nodes differ. */
    static String of(OperatorFigures m) {
        if (m == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  [actual rows %,d, %.3f s", m.rows(), seconds(m.nanos())));
        if (m.held() != null) {
            b.append(", peak memory ").append(Sizes.readable(m.held().peakMemoryBytes())).append(", spilled ")
                    .append(Sizes.readable(m.held().spilledBytes()));
        }
        if (m.sent() != null) {
            b.append(", shuffled ").append(Sizes.readable(m.sent().bytes()));
        }
        if (m.lookups() != null) {
            IndexJoinRunner.Lookups l = m.lookups();
            b.append(String.format(Locale.ROOT, "; key lookups: %,d on the probing row's node, %,d requests to other "
                    + "nodes in %,d frames, %,d pages read", l.localProbes(), l.remoteRequests(), l.requestFrames(),
                    l.pageReads()));
        }
        TableReader.NodeFigures nodes = m.nodes();
        if (nodes != null) {
            b.append(String.format(Locale.ROOT, "; nodes read %,d rows", nodes.rowsScanned()));
            List<String> files = new ArrayList<>();
            if (nodes.bytesRead() > 0 || nodes.bytesCached() > 0) {
                files.add(Sizes.readable(nodes.bytesRead()) + " of files");
            }
            if (nodes.bytesCached() > 0) {
                files.add(Sizes.readable(nodes.bytesCached()) + " from the nodes' cache of files");
            }
            if (nodes.splits().groups() > 0) {
                files.add(String.format(Locale.ROOT, "%,d of %,d row groups and stripes skipped by their statistics",
                        nodes.splits().groupsSkipped(), nodes.splits().groups()));
            }
            if (!files.isEmpty()) {
                b.append(" (").append(String.join("; ", files)).append(')');
            }
            if (nodes.splits().taken() > 0) {
                b.append(String.format(Locale.ROOT, ", %,d of %,d splits taken from other nodes' queues",
                        nodes.splits().taken(), nodes.splits().read()));
            }
            b.append(String.format(Locale.ROOT, ", slowest %s %.3f s, peak memory %s, spilled %s", nodes.slowestNode(),
                    seconds(nodes.slowestNanos()), Sizes.readable(nodes.peakMemoryBytes()),
                    spilled(nodes.spilledBytes(), nodes.spilledRows())));
            b.append(", sent ").append(Sizes.readable(nodes.bytesOut()));
            if (nodes.rowsUngrouped() > 0) {
                b.append(String.format(Locale.ROOT, ", partial aggregation skipped for %,d rows", nodes.rowsUngrouped()));
            }
        }
        b.append(']');
        if (nodes != null && skewed(nodes.byNode())) {
            List<String> each = new ArrayList<>();
            nodes.byNode().forEach((node, s) -> each.add(String.format(Locale.ROOT,
                    "%s read %,d rows, %.3f s, peak memory %s, spilled %s, sent %s", node, s.rowsScanned(),
                    seconds(s.nanos()), Sizes.readable(s.peakMemoryBytes()), spilled(s.spilledBytes(), s.spilledRows()),
                    Sizes.readable(s.bytesOut()))));
            b.append("\n(by node: ").append(String.join("; ", each)).append(')');
        }
        return b.toString();
    }

    /**
     * The printed plan with each figure's per-node line made a line of its own, under its
     * operator's line and indented past it.
     */
    static List<String> lines(List<String> printed) {
        List<String> out = new ArrayList<>(printed.size());
        for (String line : printed) {
            String[] parts = line.split("\n");
            out.add(parts[0]);
            String indent = parts[0].substring(0, parts[0].length() - parts[0].stripLeading().length()) + "  ";
            for (int i = 1; i < parts.length; i++) {
                out.add(indent + parts[i]);
            }
        }
        return out;
    }

    /** Whether the nodes' rows read, time, peak memory or bytes spilled differ enough to show each node. */
    static boolean skewed(Map<String, Summary> byNode) {
        return byNode.size() > 1 && (differ(byNode, Summary::rowsScanned, ROWS_FLOOR) || differ(byNode, Summary::nanos, NANOS_FLOOR)
                || differ(byNode, Summary::peakMemoryBytes, BYTES_FLOOR) || differ(byNode, Summary::spilledBytes, BYTES_FLOOR));
    }

    private static boolean differ(Map<String, Summary> byNode, ToLongFunction<Summary> figure, long floor) {
        long max = byNode.values().stream().mapToLong(figure).max().orElse(0);
        long min = byNode.values().stream().mapToLong(figure).min().orElse(0);
        return max - min > floor && max > SKEW * min;
    }

    private static String spilled(long bytes, long rows) {
        return bytes == 0 ? Sizes.readable(0) : String.format(Locale.ROOT, "%s (%,d rows)", Sizes.readable(bytes), rows);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
