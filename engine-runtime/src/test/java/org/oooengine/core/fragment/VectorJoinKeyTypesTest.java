package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;

/**
 * Hash joins on strings, decimals, timestamps, booleans and doubles, and on several keys of mixed
 * types, run on batches and answer as the row engine does, over builds of rows and of columns:
 * build keys that repeat, are null or that no probe value equals (0.251 against a decimal of
 * scale 2), decimals of other scales and integers equal to
 * a probe's decimal (5.5 and 5 against 5.50 and 5.00), probe values the build lacks.
 */
class VectorJoinKeyTypesTest {
    private static final SqlType MONEY = SqlType.decimal(12, 2);
    private static final SqlType[] PROBE = {SqlType.STRING, MONEY, SqlType.BIGINT, SqlType.TIMESTAMP, SqlType.BOOLEAN,
        SqlType.DOUBLE};
    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 0, 0);

    @Test
    void joinsOnKeysOfEveryTypeAnswerAsTheRowEngine() {
        List<Object[]> probe = probeRows();
        List<Object[]> build = buildRows();
        List<List<Integer>> keySets = List.of(List.of(0), List.of(1), List.of(3), List.of(4), List.of(5), List.of(0, 1),
                List.of(1, 2), List.of(0, 4, 5));
        int joins = 0;
        for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.RIGHT, JoinKind.FULL, JoinKind.SEMI,
                JoinKind.ANTI, JoinKind.RIGHT_SEMI, JoinKind.RIGHT_ANTI, JoinKind.ANTI_NULL_AWARE)) {
            for (List<Integer> keys : keySets) {
                if (kind == JoinKind.ANTI_NULL_AWARE && keys.size() > 1) {
                    continue;
                }
                PipelineStep.HashJoin join = new PipelineStep.HashJoin(VectorHashJoin.keepsBuild(kind) ? new JoinBuild.Gathered(0)
                        : new JoinBuild.Rows(build), kind, keys, keys, null, 7);
                List<String> rows = byRow(join, probe, build);
                for (Pipeline.BuildSource source : List.of(Pipeline.BuildSource.ofRows((b, out) -> out.accept(build)),
                        asColumns(build))) {
                    List<String> batches = new ArrayList<>();
                    VectorPipeline vectors = new VectorPipeline(List.of(join), PROBE, source,
                            out -> out.forEach(r -> batches.add(Arrays.toString(r))), QueryMemory.unbounded());
                    for (int from = 0; from < probe.size(); from += 1000) {
                        vectors.acceptRows(probe.subList(from, Math.min(probe.size(), from + 1000)));
                    }
                    vectors.finish();
                    String what = kind + " on " + keys;
                    assertEquals(0, vectors.rowSteps(), what + ": on batches");
                    assertSameRows(rows, batches.stream().sorted().toList(), what);
                    joins++;
                }
                if (kind == JoinKind.INNER) {
                    assertTrue(rows.size() > 100, kind + " on " + keys + ": " + rows.size() + " rows");
                }
            }
        }
        assertEquals(2 * (8 * keySets.size() + 5), joins);
    }

    /** Keys of each type, a tenth of the strings and amounts null; strings up to "k299", which the build lacks past "k199". */
    private static List<Object[]> probeRows() {
        List<Object[]> probe = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            probe.add(new Object[] {i % 10 == 0 ? null : "k" + i % 300, i % 10 == 5 ? null : BigDecimal.valueOf(i % 40 * 25, 2),
                (long) (i % 7), T0.plusNanos(i % 30 * 1000L), i % 3 == 0, (double) (i % 9) / 4});
        }
        return probe;
    }

    /**
     * Build rows: strings "k0" to "k199" (each twice), amounts as decimals of scales 1 to 3 and as
     * integers, times, booleans, doubles; some keys null.
     */
    private static List<Object[]> buildRows() {
        List<Object[]> build = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            Object amount = switch (i % 4) {
                case 0 -> BigDecimal.valueOf(i % 40 * 25, 2);
                case 1 -> BigDecimal.valueOf(i % 40 * 25, 2).stripTrailingZeros(); // 0.5 for 0.50
                case 2 -> BigDecimal.valueOf(i % 40 * 250 + (i % 8 == 2 ? 1 : 0), 3); // 0.251: equals no probe value
                default -> i % 40 % 4 == 0 ? (Object) (i % 40 / 4) : BigDecimal.valueOf(i % 40 * 25, 2);
            };
            build.add(new Object[] {i % 37 == 0 ? null : "k" + i % 200, i % 29 == 0 ? null : amount, (long) (i % 5),
                T0.plusNanos(i % 20 * 1000L), i % 4 == 0, (double) (i % 12) / 4, "b" + i});
        }
        return build;
    }

    /** {@code expected} and {@code actual} alike, else a failure naming their sizes and the first row they differ in. */
    private static void assertSameRows(List<String> expected, List<String> actual, String what) {
        int i = 0;
        while (i < Math.min(expected.size(), actual.size()) && expected.get(i).equals(actual.get(i))) {
            i++;
        }
        if (i < Math.max(expected.size(), actual.size())) {
            throw new AssertionError(what + ": " + expected.size() + " rows expected, " + actual.size() + " came; at "
                    + i + " expected " + (i < expected.size() ? expected.get(i) : "none") + ", came "
                    + (i < actual.size() ? actual.get(i) : "none"));
        }
    }

    private static List<String> byRow(PipelineStep.HashJoin join, List<Object[]> probe, List<Object[]> build) {
        List<String> rows = new ArrayList<>();
        Pipeline p = new Pipeline(List.of(join), PROBE.length, Pipeline.BuildSource.ofRows((b, out) -> out.accept(build)),
                out -> out.forEach(r -> rows.add(Arrays.toString(r))));
        p.accept(probe);
        p.finish();
        return rows.stream().sorted().toList();
    }

    /** The build rows as chunks of columns, each read back as a node reads a shuffled chunk. */
    private static Pipeline.BuildSource asColumns(List<Object[]> build) {
        return (b, chunks) -> {
            for (int from = 0; from < build.size(); from += 150) {
                PayloadWriter w = new PayloadWriter();
                ColumnarRows.write(w, build.subList(from, Math.min(build.size(), from + 150)));
                chunks.accept(ColumnarRows.readChunk(new PayloadReader(w.toByteArray())));
            }
        };
    }
}
