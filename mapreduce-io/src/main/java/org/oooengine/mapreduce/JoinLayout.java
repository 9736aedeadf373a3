package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.exec.JoinSpec;

/**
 * Where the columns of a reduce-side join come from: which columns each side's mapper keeps, and
 * how the reducer puts an outer and an inner record together in the order of the spec's output.
 * Built from the spec and both tables' column names, which the job stores in its configuration.
 */
final class JoinLayout {
    private static final String COLUMNS = "ooo.psmj.columns.";

    final int outerJoin;
    final int outerRange;
    final int innerJoin;
    /** Table positions each side's record carries. */
    final int[][] kept = new int[2][];
    /** For each output column: its side, and its index in that side's record. */
    private final int[] outputSide;
    private final int[] outputIndex;

    JoinLayout(JoinSpec spec, List<String> outerColumns, List<String> innerColumns) {
        outerJoin = position(spec.outerTable(), outerColumns, spec.outerJoin());
        outerRange = position(spec.outerTable(), outerColumns, spec.outerRange().column());
        innerJoin = position(spec.innerTable(), innerColumns, spec.innerJoin());
        List<List<Integer>> keep = List.of(new ArrayList<>(), new ArrayList<>());
        outputSide = new int[spec.output().size()];
        outputIndex = new int[spec.output().size()];
        for (int i = 0; i < spec.output().size(); i++) {
            String qualified = spec.output().get(i);
            String table = qualified.substring(0, qualified.indexOf('.'));
            String column = qualified.substring(qualified.indexOf('.') + 1);
            int side = table.equals(spec.outerTable()) ? 0 : table.equals(spec.innerTable()) ? 1 : -1;
            if (side < 0) {
                throw new IllegalArgumentException("output column " + qualified + " is from neither " + spec.outerTable()
                        + " nor " + spec.innerTable());
            }
            outputSide[i] = side;
            outputIndex[i] = keep.get(side).size();
            keep.get(side).add(position(table, side == 0 ? outerColumns : innerColumns, column));
        }
        kept[0] = keep.get(0).stream().mapToInt(Integer::intValue).toArray();
        kept[1] = keep.get(1).stream().mapToInt(Integer::intValue).toArray();
    }

    static JoinLayout of(Configuration conf, JoinSpec spec) {
        return new JoinLayout(spec, columns(conf, spec.outerTable()), columns(conf, spec.innerTable()));
    }

    static void setColumns(Configuration conf, String table, List<String> columns) {
        conf.setStrings(COLUMNS + table, columns.toArray(String[]::new));
    }

    private static List<String> columns(Configuration conf, String table) {
        String[] c = conf.getStrings(COLUMNS + table);
        if (c == null) {
            throw new IllegalStateException("the job does not list the columns of " + table);
        }
        return Arrays.asList(c);
    }

    private static int position(String table, List<String> columns, String column) {
        int p = columns.indexOf(column);
        if (p < 0) {
            throw new IllegalArgumentException("no column " + column + " in " + table + "; columns: " + columns);
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

    Object[] combine(Object[] outer, Object[] inner) {
        Object[] out = new Object[outputSide.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (outputSide[i] == 0 ? outer : inner)[outputIndex[i]];
        }
        return out;
    }
}
