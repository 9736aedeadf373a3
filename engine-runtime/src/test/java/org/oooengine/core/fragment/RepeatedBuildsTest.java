package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * A local build one pipeline reads twice, the same but for which copy of equal broadcast rows it
 * joins (TPC-H Q21's late lineitems, reducing two scans of lineitem): its table is read once, and
 * the answer is the one of reading it twice.
 */
class RepeatedBuildsTest {
    private static final Schema KEYS = new Schema(List.of(new Column("k", DataType.BIGINT)));
    private final Map<String, Integer> reads = new HashMap<>();

    @Test
    void aLocalBuildReadTwiceRunsOnce() {
        List<Object[]> out = run(twoSemiJoins(List.of(new Object[] {2L}, new Object[] {4L}),
                List.of(new Object[] {2L}, new Object[] {4L})));
        assertEquals(List.of(2L, 4L), out.stream().map(r -> r[0]).toList());
        assertEquals(1, reads.get("late"), "the late table's pipeline ran once");
        assertEquals(1, reads.get("probe"));
    }

    @Test
    void buildsThatDifferRunEach() {
        List<Object[]> onlyFour = new ArrayList<>();
        onlyFour.add(new Object[] {4L});
        List<Object[]> out = run(twoSemiJoins(List.of(new Object[] {2L}, new Object[] {4L}), onlyFour));
        assertEquals(List.of(4L), out.stream().map(r -> r[0]).toList());
        assertEquals(2, reads.get("late"));
    }

    /** Rows of "probe" semi-joined twice with "late" joined with each of the broadcasts. */
    private static ScanPipeline twoSemiJoins(List<Object[]> first, List<Object[]> second) {
        return new ScanPipeline("probe", 1, all(), List.of(semiWithLate(first), semiWithLate(second)));
    }

    private static PipelineStep.HashJoin semiWithLate(List<Object[]> broadcast) {
        ScanPipeline late = new ScanPipeline("late", 1, all(), List.of(new PipelineStep.HashJoin(
                new JoinBuild.Rows(new ArrayList<>(broadcast.stream().map(Object[]::clone).toList())), JoinKind.SEMI,
                List.of(0), List.of(0), null, 1)));
        return new PipelineStep.HashJoin(new JoinBuild.Local(late), JoinKind.SEMI, List.of(0), List.of(0), null, 1);
    }

    private static BitSet all() {
        BitSet b = new BitSet();
        b.set(0);
        return b;
    }

    private List<Object[]> run(ScanPipeline spec) {
        List<Object[]> out = new ArrayList<>();
        PartitionPipeline.run(name -> null, this::source, (build, chunks) -> {
            throw new AssertionError("no rows are sent");
        }, spec, out::addAll, () -> false, QueryMemory.unbounded());
        return out;
    }

    private PartitionPipeline.RowSource source(String table) {
        return new PartitionPipeline.RowSource() {
            @Override
            public Schema schema() {
                return KEYS;
            }

            @Override
            public void forEachPage(Predicate<List<Object[]>> page) {
                reads.merge(table, 1, Integer::sum);
                List<Object[]> rows = new ArrayList<>();
                for (long k = 1; k <= 5; k++) {
                    rows.add(new Object[] {k});
                }
                page.test(rows);
            }
        };
    }
}
