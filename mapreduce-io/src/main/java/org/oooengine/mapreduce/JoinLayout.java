package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.settings.JobKeys;

/**
 * Where the columns of one reduce-side join stage come from. A join of n tables runs as n - 1
 * stages: stage 1 joins the outer table (left, range applied) with the first probed table
 * (right); stage k joins the rows stage k - 1 wrote (left) with the k-th probed table. Every stage
 * writes only what is still needed — the output columns of the tables joined so far and the
 * columns later stages join on — and the last stage writes exactly the spec's output. Columns are
 * named {@code alias.column}; each table's column order comes from the job's configuration
 * ({@link TableSchemas}), by table name.
 */
final class JoinLayout {
    private static final String STAGE = JobKeys.PSMJ_STAGE.name();
    static final int LEFT = 0;
    static final int RIGHT = 1;

    final int leftJoin;
    final int rightJoin;
    /** Position of the outer range column in left records on stage 1; -1 later (stage 1 already filtered). */
    final int leftRange;
    /** Positions each side's map output record carries. */
    final int[][] kept = new int[2][];
    /** For each column this stage writes: its side, and its index in that side's record. */
    private final int[] outputSide;
    private final int[] outputIndex;

    private JoinLayout(List<String> left, List<String> right, String leftJoinColumn, String rightJoinColumn,
                       String rangeColumn, List<String> output) {
        leftJoin = position(left, leftJoinColumn);
        rightJoin = position(right, rightJoinColumn);
        leftRange = rangeColumn == null ? -1 : position(left, rangeColumn);
        List<List<Integer>> keep = List.of(new ArrayList<>(), new ArrayList<>());
        outputSide = new int[output.size()];
        outputIndex = new int[output.size()];
        for (int i = 0; i < output.size(); i++) {
            String column = output.get(i);
            int side = left.contains(column) ? LEFT : RIGHT;
            outputSide[i] = side;
            outputIndex[i] = keep.get(side).size();
            keep.get(side).add(position(side == LEFT ? left : right, column));
        }
        kept[LEFT] = keep.get(LEFT).stream().mapToInt(Integer::intValue).toArray();
        kept[RIGHT] = keep.get(RIGHT).stream().mapToInt(Integer::intValue).toArray();
    }

    /** The layout of stage {@code stage} (1-based), given each table's column names. */
    static JoinLayout forStage(JoinSpec spec, int stage, Function<String, List<String>> tableColumns) {
        if (stage < 1 || stage > spec.probes().size()) {
            throw new IllegalArgumentException("a join of " + spec.tables().size() + " tables has no stage " + stage);
        }
        JoinSpec.Probe probe = spec.probes().get(stage - 1);
        List<String> left = stage == 1 ? qualified(spec.outerAlias(), tableColumns.apply(spec.outerTable()))
                : carried(spec, stage);
        String range = stage == 1 ? spec.outerAlias() + "." + spec.outerRange().column() : null;
        return new JoinLayout(left, qualified(probe.alias(), tableColumns.apply(probe.table())), probe.from(),
                probe.alias() + "." + probe.column(), range, carried(spec, stage + 1));
    }

    /** The layout of the stage the job in {@code conf} runs. */
    static JoinLayout of(Configuration conf, JoinSpec spec) {
        return forStage(spec, stage(conf), t -> TableSchemas.columns(conf, t));
    }

    /**
     * The columns written once the first {@code joined} tables of the chain are joined: the
     * spec's output columns of those tables, then the columns later probes join on.
     */
    static List<String> carried(JoinSpec spec, int joined) {
        if (joined == spec.tables().size()) {
            return spec.output();
        }
        Set<String> aliases = new HashSet<>(spec.aliases().subList(0, joined));
        Set<String> out = new LinkedHashSet<>();
        for (String c : spec.output()) {
            if (aliases.contains(c.substring(0, c.indexOf('.')))) {
                out.add(c);
            }
        }
        for (JoinSpec.Probe p : spec.probes().subList(joined - 1, spec.probes().size())) {
            if (aliases.contains(p.fromAlias())) {
                out.add(p.from());
            }
        }
        return List.copyOf(out);
    }

    static void setStage(Configuration conf, int stage) {
        conf.setInt(STAGE, stage);
    }

    static int stage(Configuration conf) {
        return conf.getInt(STAGE, 1);
    }

    private static List<String> qualified(String alias, List<String> columns) {
        return columns.stream().map(c -> alias + "." + c).toList();
    }

    private static int position(List<String> columns, String column) {
        int p = columns.indexOf(column);
        if (p < 0) {
            throw new IllegalArgumentException("no column " + column + " among " + columns);
        }
        return p;
    }

    Object[] keep(int side, Object[] row) {
        int[] k = kept[side];
        Object[] out = new Object[k.length];
        for (int i = 0; i < k.length; i++) {
            out[i] = row[k[i]];
        }
        return out;
    }

    Object[] combine(Object[] left, Object[] right) {
        Object[] out = new Object[outputSide.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (outputSide[i] == LEFT ? left : right)[outputIndex[i]];
        }
        return out;
    }
}
