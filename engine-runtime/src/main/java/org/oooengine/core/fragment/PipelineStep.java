package org.oooengine.core.fragment;

import java.util.List;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.core.sql.expr.WindowCall;

/**
 * One operator of a {@link ScanPipeline}, applied to each batch of rows in turn. Expressions refer
 * to the columns of the step's input by position, as in the coordinator's plan.
 */
public sealed interface PipelineStep {
    /** Keeps the rows on which {@code condition} is true. */
    record Filter(Expr condition) implements PipelineStep {
    }

    /** Each row becomes the values of {@code exprs}. */
    record Project(List<Expr> exprs) implements PipelineStep {
        /**
         * This projection of the rows {@code inner} makes, as one projection of {@code inner}'s
         * input (a subquery's columns then the outer query's: one row copied, not two); null where
         * that would compute one of {@code inner}'s expressions more than once.
         */
        public Project after(Project inner) {
            int[] uses = new int[inner.exprs.size()];
            exprs.forEach(e -> countUses(e, uses));
            for (int c = 0; c < uses.length; c++) {
                Expr made = inner.exprs.get(c);
                if (uses[c] > 1 && !(made instanceof Expr.Column || made instanceof Expr.Literal)) {
                    return null;
                }
            }
            return new Project(exprs.stream().map(e -> Exprs.substitute(e, inner.exprs)).toList());
        }

        /** Counts each reference to a column, twice where one expression reads it twice. */
        private static void countUses(Expr e, int[] uses) {
            if (e instanceof Expr.Column c) {
                uses[c.index()]++;
            }
            e.children().forEach(x -> countUses(x, uses));
        }
    }

    /** {@code steps} then {@code step}: a projection of a projection's rows made one ({@link Project#after}). */
    static List<PipelineStep> appended(List<PipelineStep> steps, PipelineStep step) {
        List<PipelineStep> more = new java.util.ArrayList<>(steps);
        PipelineStep last = more.isEmpty() ? null : more.get(more.size() - 1);
        Project merged = step instanceof Project outer && last instanceof Project inner ? outer.after(inner) : null;
        if (merged != null) {
            more.set(more.size() - 1, merged);
        } else {
            more.add(step);
        }
        return more;
    }

    /**
     * Each row becomes one row per item of {@code projections}, the values of its expressions:
     * GROUPING SETS' copy of the row for each set (the keys not in the set null, the set's
     * grouping id beside them), which a GROUP BY of the keys and the id then aggregates. Every
     * projection makes columns of the same types. {@code cascaded}: a {@link PartialAggregate}
     * right after it that {@link #cascades} groups the first copy's rows only, and each next set
     * from the groups of the set before (ROLLUP: the finest set once, then ever coarser ones from
     * the groups, not from every row again); the groups are the same either way.
     */
    record Expand(List<List<Expr>> projections, boolean cascaded) implements PipelineStep {
        public Expand(List<List<Expr>> projections) {
            this(projections, false);
        }

        public Expand {
            projections = projections.stream().map(List::copyOf).toList();
            if (projections.isEmpty()) {
                throw new IllegalArgumentException("an expansion into no rows");
            }
            List<Expr> first = projections.get(0);
            for (List<Expr> p : projections) {
                if (p.size() != first.size()) {
                    throw new IllegalArgumentException("expanded rows of " + first.size() + " and " + p.size() + " columns");
                }
                for (int i = 0; i < p.size(); i++) {
                    if (!p.get(i).type().equals(first.get(i).type())) {
                        throw new IllegalArgumentException("expanded column " + i + " is " + first.get(i).type() + " and "
                                + p.get(i).type());
                    }
                }
            }
        }

        /** Columns of each row out. */
        public int width() {
            return projections.get(0).size();
        }

        /**
         * Whether grouping the copies by {@code keys} for {@code aggregates} may take each set
         * after the first from the groups of the set before: the sets nest in their order (each
         * key a column every copy after the first either makes as the copy before it does, or
         * makes a literal: a null left out, the grouping id), and the aggregates are counts, sums,
         * averages and extremes, not distinct, of columns every copy makes alike, so that a
         * group's values are the same in each set and its states merge into a coarser group's.
         */
        public boolean cascades(List<Expr> keys, List<AggregateCall> aggregates) {
            if (projections.size() < 2 || keys.isEmpty()
                    || aggregates.stream().anyMatch(c -> c.distinct() || !c.kind().isSimple())) {
                return false;
            }
            java.util.BitSet read = new java.util.BitSet();
            aggregates.stream().filter(c -> c.arg() != null).forEach(c -> read.or(Exprs.columns(c.arg())));
            for (int c = read.nextSetBit(0); c >= 0; c = read.nextSetBit(c + 1)) {
                int column = c;
                if (column >= width() || projections.stream().anyMatch(p -> !p.get(column).equals(projections.get(0).get(column)))) {
                    return false;
                }
            }
            for (Expr key : keys) {
                if (!(key instanceof Expr.Column k) || k.index() >= width()) {
                    return false;
                }
                for (int p = 1; p < projections.size(); p++) {
                    Expr made = projections.get(p).get(k.index());
                    if (!(made instanceof Expr.Literal) && !made.equals(projections.get(p - 1).get(k.index()))) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /**
     * A hash join whose probe side is the pipeline's rows: each row meets the {@code build}
     * rows whose {@code buildKeys} equal its {@code probeKeys} (nulls never match), and the
     * {@code residual} (may be null) over the joined row, probe columns then {@code buildWidth}
     * build columns. The kind is the probe side's: LEFT pads a lone probe row, SEMI/ANTI keep or
     * drop it; RIGHT and FULL send the build rows no probe row met when the input ends, RIGHT_SEMI
     * and RIGHT_ANTI (their output is the build's columns) those some probe row met or none did,
     * which is right only when every partner of the node's build rows is in its partition: its
     * own rows ({@link JoinBuild.Local}), or rows shuffled to it by the key ({@link JoinBuild.Shuffled}
     * and {@link JoinBuild.Exchanged}; a join that keeps its build rows has those of a null key
     * shuffled to one node: {@link ShuffleTarget#keepsNulls}).
     */
    record HashJoin(JoinBuild build, JoinKind kind, List<Integer> probeKeys, List<Integer> buildKeys, Expr residual,
                    int buildWidth) implements PipelineStep {
        public HashJoin {
            probeKeys = List.copyOf(probeKeys);
            buildKeys = List.copyOf(buildKeys);
            if (probeKeys.size() != buildKeys.size()) {
                throw new IllegalArgumentException(probeKeys.size() + " probe keys for " + buildKeys.size() + " build keys");
            }
            boolean shuffled = build instanceof JoinBuild.Shuffled || build instanceof JoinBuild.Exchanged;
            boolean partnersHere = build instanceof JoinBuild.Local || build instanceof JoinBuild.Gathered
                    || shuffled;
            if ((kind == JoinKind.RIGHT || kind == JoinKind.FULL || kind.rightOnly()) && !partnersHere) {
                throw new IllegalArgumentException("a " + kind + " join on the nodes needs each node's own build rows");
            }
        }
    }

    /**
     * Drops a row whose values of {@code keys} a row before it had (nulls alike), as a DISTINCT
     * above would: placed only where every step after it up to such a DISTINCT (or GROUP BY without
     * aggregates) keeps a repeated row's copies alike, so that fewer rows are joined, sent and
     * grouped. It need not drop them all: it forgets the keys it saw when they outgrow its share of
     * the memory, and once more than {@code keepPercent} percent of its first rows were new it
     * stops looking and lets every row through. The rows out are the rows in, unchanged.
     */
    record DropRepeats(List<Expr> keys, int keepPercent) implements PipelineStep {
        public DropRepeats {
            keys = List.copyOf(keys);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("repeats of no keys dropped");
            }
            if (keepPercent < 0 || keepPercent > PartialAggregate.NEVER_SKIP) {
                throw new IllegalArgumentException("repeats dropped while at most " + keepPercent + "% of the rows are new");
            }
        }
    }

    /**
     * A whole GROUP BY whose groups each lie on one node (grouped by the column the table is
     * partitioned on): rows out are the keys, then each aggregate's result, sent on to the steps
     * after it when the input ends. Distinct aggregates too.
     */
    record Aggregate(List<Expr> keys, List<AggregateCall> aggregates) implements PipelineStep {
        public Aggregate {
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("an aggregate without keys has one group over every node");
            }
        }
    }

    /**
     * Window functions over the rows that reach it ({@link WindowOperator}): each row with every
     * call's value appended, computed over the rows equal in {@code partitionKeys}, in
     * {@code orderKeys} order. The rows go on when the input ends, so it is right only where
     * every row of a partition reaches the same node: the table is partitioned on one of the
     * keys, or the rows were shuffled there by them. Sorted (and spilled) as it holds them.
     */
    record Window(List<Expr> partitionKeys, List<WindowCall.OrderKey> orderKeys, List<WindowCall> calls)
            implements PipelineStep {
        public Window {
            partitionKeys = List.copyOf(partitionKeys);
            orderKeys = List.copyOf(orderKeys);
            calls = List.copyOf(calls);
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("a window without calls");
            }
        }

        /** The input columns its keys and calls read. */
        public java.util.BitSet columnsRead() {
            java.util.BitSet in = new java.util.BitSet();
            partitionKeys.forEach(k -> in.or(Exprs.columns(k)));
            orderKeys.forEach(k -> in.or(Exprs.columns(k.expr())));
            for (WindowCall c : calls) {
                Expr aggregated = c.aggregate() == null ? null : c.aggregate().arg();
                for (Expr e : java.util.Arrays.asList(c.arg(), c.fallback(), aggregated)) {
                    if (e != null) {
                        in.or(Exprs.columns(e));
                    }
                }
            }
            return in;
        }
    }

    /**
     * Every row that reaches it, in the order of {@code keys} (ORDER BY without LIMIT): it ends a
     * pipeline, whose rows leave when its input ends, sorted (in runs on disk past the memory);
     * the coordinator merges the nodes' orders.
     */
    record Sort(List<SortKey> keys) implements PipelineStep {
        public Sort {
            keys = List.copyOf(keys);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("a sort without keys");
            }
        }
    }

    /**
     * The first {@code count} rows that reach it, whichever they are (LIMIT without ORDER BY): it
     * ends a pipeline, and the node stops reading its partition once they came out.
     */
    record Limit(long count) implements PipelineStep {
        public Limit {
            if (count < 0) {
                throw new IllegalArgumentException("the first " + count + " rows");
            }
        }
    }

    /**
     * ORDER BY {@code keys} LIMIT {@code count} of the rows that reach it, the last step of a
     * pipeline: each node sends only its first {@code count} rows, in order, when the input ends,
     * and the coordinator keeps the first of all of them.
     */
    record TopN(List<SortKey> keys, long count) implements PipelineStep {
        public static final long MAX_COUNT = 100_000;

        public TopN {
            keys = List.copyOf(keys);
            if (keys.isEmpty() || count < 0 || count > MAX_COUNT) {
                throw new IllegalArgumentException("the first " + count + " rows by " + keys.size() + " keys");
            }
        }
    }

    /**
     * The second half of a GROUP BY, on a node: merges the partial rows that reach it ({@code
     * keyCount} keys, then {@link AggregateCall#PARTIAL_WIDTH} values per aggregate, from
     * {@link PartialAggregate}s) into each group's result — keys, then each aggregate's value —
     * sent on to the steps after it when the input ends (spilling groups as they outgrow the
     * memory). Right only where every partial row of a group reaches the node: rows shuffled to it
     * by (some of) the keys.
     */
    record MergePartials(int keyCount, List<AggregateCall> aggregates) implements PipelineStep {
        public MergePartials {
            aggregates = List.copyOf(aggregates);
            if (keyCount < 1) {
                throw new IllegalArgumentException("partial rows of " + keyCount + " keys merged on a node");
            }
            for (AggregateCall call : aggregates) {
                if (!call.splittable()) {
                    throw new IllegalArgumentException(call + " cannot be aggregated in two steps");
                }
            }
        }

        /** Columns of the partial rows it merges. */
        public int inputWidth() {
            return keyCount + aggregates.size() * AggregateCall.PARTIAL_WIDTH;
        }
    }

    /**
     * The first half of a GROUP BY: per group of {@code keys} the running states of
     * {@code aggregates}; rows out are the keys, then {@link AggregateCall#PARTIAL_WIDTH} values
     * per aggregate, for a {@link FinalAggregation} to merge. Emitted when the input ends. When its
     * groups are more than {@code skipPercent} percent of the first rows it grouped, it sends them
     * and then each further row as a group of its own (see {@link #NEVER_SKIP}).
     */
    record PartialAggregate(List<Expr> keys, List<AggregateCall> aggregates, int skipPercent) implements PipelineStep {
        /** A {@code skipPercent} at which it groups every row: groups are never more than the rows. */
        public static final int NEVER_SKIP = 100;

        public PartialAggregate {
            for (AggregateCall call : aggregates) {
                if (!call.splittable()) {
                    throw new IllegalArgumentException(call + " cannot be aggregated in two steps");
                }
            }
            if (skipPercent < 0 || skipPercent > NEVER_SKIP) {
                throw new IllegalArgumentException("a partial aggregate skipped past " + skipPercent + "% of groups");
            }
        }

        /** One that groups every row. */
        public PartialAggregate(List<Expr> keys, List<AggregateCall> aggregates) {
            this(keys, aggregates, NEVER_SKIP);
        }
    }
}
