package org.oooengine.optimizer.rel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * A build side too large for every node but not for a node's share goes to the nodes whose splits
 * of the probing table's files may hold its key, where the files hold the key in order; a split
 * carries the range of one column, so of two such joins on two ordered columns one is routed so.
 */
class RangeRoutesTest {
    private static final long ROWS = 1_000_000;
    private static final long BUILD_ROWS = 100_000;

    private static TableInfo table(String name, String... columns) {
        List<ResultColumn> cs = new ArrayList<>();
        for (String c : columns) {
            cs.add(new ResultColumn(c, SqlType.BIGINT));
        }
        return new TableInfo("default", name, cs, List.of(), name, Map.of(), "");
    }

    private static final TableInfo EVENTS = table("events", "e_id", "e_time", "e_user");
    private static final TableInfo ONE = table("one", "k1");
    private static final TableInfo TWO = table("two", "k2");

    private static RelNode.Scan scan(TableInfo t) {
        return new RelNode.Scan(t, t.name(), t.columns().stream().map(c -> new Field(t.name(), c.name(), SqlType.BIGINT))
                .toList(), null);
    }

    /** Events held in order of {@code ordered} columns, 1 M of them, the others 100 K; all of 8-byte columns. */
    private static TableLayouts layouts(List<Integer> ordered) {
        return new TableLayouts() {
            @Override
            public OptionalLong rows(TableInfo table) {
                return OptionalLong.of(table == EVENTS ? ROWS : BUILD_ROWS);
            }

            @Override
            public OptionalLong bytes(TableInfo table) {
                return OptionalLong.of(rows(table).getAsLong() * 8 * table.columns().size());
            }

            @Override
            public int nodes(TableInfo table) {
                return 4;
            }

            @Override
            public boolean partitionedAlike(TableInfo a, TableInfo b) {
                return false;
            }

            @Override
            public boolean ordered(TableInfo table, int column) {
                return table == EVENTS && ordered.contains(column);
            }
        };
    }

    /** The builds of the hash joins the plan's node pipelines run, in order. */
    private static List<JoinBuild> builds(RelNode plan) {
        List<JoinBuild> builds = new ArrayList<>();
        collect(plan, builds);
        return builds;
    }

    private static void collect(RelNode node, List<JoinBuild> builds) {
        if (node instanceof RelNode.NodePipeline p) {
            for (PipelineStep step : p.steps()) {
                if (step instanceof PipelineStep.HashJoin j) {
                    builds.add(j.build());
                }
            }
        }
        List<RelNode> inputs = node instanceof RelNode.ShuffledJoin j ? List.of(j.left(), j.right()) : PlanPrinter.inputs(node);
        for (RelNode input : inputs) {
            collect(input, builds);
        }
    }

    /** The scan columns by whose ranges the plan's joins route their build rows. */
    private static List<Integer> rangeColumns(RelNode plan) {
        return builds(plan).stream().filter(b -> b instanceof JoinBuild.Broadcast x && x.byRanges())
                .map(b -> ((JoinBuild.Broadcast) b).rangeColumn()).toList();
    }

    @Test
    void ofTwoJoinsOnTwoOrderedColumnsOneIsRoutedByRanges() {
        RelNode byId = new RelNode.Join(scan(EVENTS), scan(ONE), JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        RelNode both = new RelNode.Join(byId, scan(TWO), JoinKind.INNER, new int[] {1}, new int[] {0}, null);
        // 800 KB of keys each: over the 300 KB any node may be sent whole, a quarter of them within it
        PipelinePlanner.Limits limits = new PipelinePlanner.Limits(300_000, Long.MAX_VALUE, true);

        assertEquals(1, rangeColumns(PipelinePlanner.plan(both, layouts(List.of(0, 1)), limits)).size());
        assertEquals(List.of(1), rangeColumns(PipelinePlanner.plan(both, layouts(List.of(1)), limits)));
        assertEquals(List.of(), rangeColumns(PipelinePlanner.plan(both, layouts(List.of()), limits)));
        // small enough for every node: sent to every node, the splits free to be stolen
        assertEquals(List.of(), rangeColumns(PipelinePlanner.plan(both, layouts(List.of(0, 1)), PipelinePlanner.Limits.DEFAULTS)));
    }
}
