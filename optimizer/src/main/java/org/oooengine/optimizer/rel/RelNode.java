package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/**
 * A relational plan node: the rows it produces have {@link #fields()} as columns. Expressions in
 * a node refer to its input's columns by position (for a join: the left columns, then the right).
 */
public sealed interface RelNode {
    List<Field> fields();

    /**
     * {@code node} over its inputs mapped by {@code f} — for the operators of a logical plan
     * (filters, projections, joins, aggregates, sorts, limits, scalar subqueries, unions,
     * windows); any
     * other node, a leaf, as it is. What a pass over the plan does where it changes nothing.
     */
    static RelNode mapInputs(RelNode node, java.util.function.UnaryOperator<RelNode> f) {
        if (node instanceof Filter x) {
            return new Filter(f.apply(x.input()), x.condition());
        }
        if (node instanceof Project x) {
            return new Project(f.apply(x.input()), x.exprs(), x.fields());
        }
        if (node instanceof Join x) {
            return new Join(f.apply(x.left()), f.apply(x.right()), x.kind(), x.leftKeys(), x.rightKeys(), x.residual());
        }
        if (node instanceof Aggregate x) {
            return new Aggregate(f.apply(x.input()), x.keys(), x.aggregates(), x.fields());
        }
        if (node instanceof PartialGroups x) {
            return new PartialGroups((Aggregate) mapInputs(x.groups(), f));
        }
        if (node instanceof Sort x) {
            return new Sort(f.apply(x.input()), x.keys());
        }
        if (node instanceof Limit x) {
            return new Limit(f.apply(x.input()), x.offset(), x.count());
        }
        if (node instanceof SingleRow x) {
            return new SingleRow(f.apply(x.input()));
        }
        if (node instanceof Union x) {
            return new Union(x.inputs().stream().map(f).toList(), x.fields());
        }
        if (node instanceof Window x) {
            return new Window(f.apply(x.input()), x.partitionKeys(), x.orderKeys(), x.calls(), x.fields());
        }
        if (node instanceof Expand x) {
            return new Expand(f.apply(x.input()), x.projections(), x.fields());
        }
        if (node instanceof Replicate x) {
            return new Replicate(f.apply(x.input()), x.countColumn());
        }
        if (node instanceof Generate x) {
            return new Generate(f.apply(x.input()), x.generator(), x.fields());
        }
        return node;
    }

    /** What {@code node} filters and projects: the first node under it that is neither. */
    static RelNode belowFiltersAndProjections(RelNode node) {
        RelNode at = node;
        while (at instanceof Filter || at instanceof Project) {
            at = at instanceof Filter f ? f.input() : ((Project) at).input();
        }
        return at;
    }

    /** Every row of a catalog table, with the conjunct {@code filter} (may be null) applied while scanning. */
    record Scan(TableInfo table, String alias, List<Field> fields, Expr filter) implements RelNode {
        public Scan withFilter(Expr f) {
            return new Scan(table, alias, fields, f);
        }
    }

    record Filter(RelNode input, Expr condition) implements RelNode {
        @Override
        public List<Field> fields() {
            return input.fields();
        }
    }

    record Project(RelNode input, List<Expr> exprs, List<Field> fields) implements RelNode {
    }

    /**
     * An equi-join on {@code leftKeys[i] = rightKeys[i]} (none for a cross join) with a residual
     * condition over the joined row, left columns then right ones (may be null).
     */
    record Join(RelNode left, RelNode right, JoinKind kind, int[] leftKeys, int[] rightKeys, Expr residual)
            implements RelNode {
        @Override
        public List<Field> fields() {
            List<Field> out = new ArrayList<>(left.fields());
            if (!kind.leftOnly()) {
                out.addAll(right.fields());
            }
            return out;
        }
    }

    /** UNION ALL: the inputs' rows one after the other; every input has the same column types. */
    record Union(List<RelNode> inputs, List<Field> fields) implements RelNode {
    }

    /** A scalar subquery's rows: one passes; none is one row of nulls; more is an error. */
    record SingleRow(RelNode input) implements RelNode {
        @Override
        public List<Field> fields() {
            return input.fields();
        }
    }

    /** GROUP BY: output columns are the keys, then the aggregates. No keys: one row for the whole input. */
    record Aggregate(RelNode input, List<Expr> keys, List<AggregateCall> aggregates, List<Field> fields)
            implements RelNode {
    }

    /**
     * The groups of {@code groups} computed over any split of its input's rows, each part on its
     * own: a key may come out once per part, its values those of the part's rows. Only under a
     * GROUP BY that merges them (sums, minima, maxima of the parts' values) — then the nodes may
     * group the rows each holds and send the groups where their join partners are, rather than
     * merge them first ({@link EagerAggregation}).
     */
    record PartialGroups(Aggregate groups) implements RelNode {
        @Override
        public List<Field> fields() {
            return groups.fields();
        }
    }

    record Sort(RelNode input, List<SortKey> keys) implements RelNode {
        @Override
        public List<Field> fields() {
            return input.fields();
        }
    }

    /**
     * Window functions: each input row with the value of every call appended, computed over the
     * rows of its partition (those equal in {@code partitionKeys}) in {@code orderKeys} order.
     * Output columns are the input's, then one per call ({@code fields} says so).
     */
    record Window(RelNode input, List<Expr> partitionKeys, List<org.oooengine.core.sql.expr.WindowCall.OrderKey> orderKeys,
                  List<org.oooengine.core.sql.expr.WindowCall> calls, List<Field> fields) implements RelNode {
        public Window {
            partitionKeys = List.copyOf(partitionKeys);
            orderKeys = List.copyOf(orderKeys);
            calls = List.copyOf(calls);
            if (fields.size() != input.fields().size() + calls.size()) {
                throw new IllegalArgumentException("a window of " + calls.size() + " calls over " + input.fields().size()
                        + " columns gives " + (input.fields().size() + calls.size()) + " columns, not " + fields.size());
            }
        }

        /** The input columns it reads when {@code required} of its output columns are read above it. */
        public java.util.BitSet inputsRead(java.util.BitSet required) {
            java.util.BitSet in = required.get(0, input.fields().size());
            in.or(step().columnsRead());
            return in;
        }

        /** The same window as a step of the nodes' pipelines. */
        public PipelineStep.Window step() {
            return new PipelineStep.Window(partitionKeys, orderKeys, calls);
        }
    }

    /** Skips {@code offset} rows, then passes at most {@code count}. */
    record Limit(RelNode input, long offset, long count) implements RelNode {
        @Override
        public List<Field> fields() {
            return input.fields();
        }
    }

    /**
     * A chain of inner joins the engine runs on the nodes: the outer table's rows in a range of an
     * indexed column, then join after join (see {@link JoinSpec}). The first {@code indexJoins}
     * joins probe an index (an index nested-loop join); the rest — only in MapReduce mode — run as
     * sort-merge join jobs (PSMJ). Rows come in {@code fields} order: the joined tables' columns as
     * written in FROM.
     *
     * @param choice why this method, e.g. the optimizer's plan and estimate
     */
    record IndexJoin(JoinSpec spec, List<Field> fields, String choice, int indexJoins) implements RelNode {
        public IndexJoin {
            if (indexJoins < 0 || indexJoins > spec.probes().size()) {
                throw new IllegalArgumentException("a chain of " + spec.probes().size() + " joins cannot start with "
                        + indexJoins + " index joins");
            }
        }

        /** Every join by index. */
        public IndexJoin(JoinSpec spec, List<Field> fields, String choice) {
            this(spec, fields, choice, spec.probes().size());
        }

        public boolean allIndexJoins() {
            return indexJoins == spec.probes().size();
        }
    }

    /**
     * An index join whose rows each node runs through {@code steps} (filters, projections, hash
     * joins with rows broadcast to every node, a partial aggregate) before sending what comes out,
     * rows of {@code fields}: an aggregate over a selective join sends its groups, not the join's
     * rows. {@code broadcasts}: what the coordinator computes and sends for the steps' joins
     * ({@link org.oooengine.core.fragment.JoinBuild.Broadcast} slots), as for a {@link NodePipeline}.
     */
    record IndexJoinSteps(IndexJoin join, List<PipelineStep> steps, List<RelNode> broadcasts, List<Field> fields)
            implements RelNode {
        public IndexJoinSteps {
            steps = List.copyOf(steps);
            broadcasts = List.copyOf(broadcasts);
        }

        /** These steps and then {@code step}, giving rows of {@code out}. */
        public IndexJoinSteps then(PipelineStep step, List<Field> out) {
            return new IndexJoinSteps(join, PipelineStep.appended(steps, step), broadcasts, out);
        }

        /** These steps and then a join with the rows of {@code build}, sent to every node, giving rows of {@code out}. */
        public IndexJoinSteps thenJoin(RelNode build, JoinKind kind, int[] probeKeys, int[] buildKeys, Expr residual,
                                       List<Field> out) {
            List<RelNode> sent = new ArrayList<>(broadcasts);
            sent.add(build);
            List<PipelineStep> more = new ArrayList<>(steps);
            more.add(new PipelineStep.HashJoin(new org.oooengine.core.fragment.JoinBuild.Broadcast(sent.size() - 1), kind,
                    java.util.Arrays.stream(probeKeys).boxed().toList(), java.util.Arrays.stream(buildKeys).boxed().toList(),
                    residual, build.fields().size()));
            return new IndexJoinSteps(join, more, sent, out);
        }
    }

    /**
     * A chain of inner joins the engine's index join could run ({@code spec}, its rows in
     * {@code indexJoinFields} order: the tables as written in FROM) or the hash joins of
     * {@code hashJoins}, whose columns are the same in the order the tables are joined — column
     * {@code h} is the index join's column {@code fromColumns[h]}. Which one runs is the physical
     * planning's choice ({@link IndexJoinChoice}), made before anything else places the plan. Run
     * as an index join, {@code recheck} (may be null, over the index join's columns) filters its
     * rows again: the conditions its probes do not enforce, and the range it may have widened.
     */
    record IndexJoinCandidate(RelNode hashJoins, JoinSpec spec, List<Field> indexJoinFields, List<Integer> fromColumns,
                              Expr recheck) implements RelNode {
        public IndexJoinCandidate {
            fromColumns = List.copyOf(fromColumns);
            if (hashJoins.fields().size() != indexJoinFields.size() || fromColumns.size() != indexJoinFields.size()) {
                throw new IllegalArgumentException("hash joins of " + hashJoins.fields().size() + " columns for an index join of "
                        + indexJoinFields.size());
            }
        }

        @Override
        public List<Field> fields() {
            return hashJoins.fields();
        }
    }

    /**
     * Work that runs on every node over its partition of {@code scan}'s table — the scan and its
     * filter, then {@code steps} — and whose output rows the coordinator gathers. A join step
     * builds from another local table's pipeline, from one of {@code broadcasts}: plans the
     * coordinator runs first, their rows sent to every node, or from one of {@code shuffles}: rows
     * the nodes send each other by the join key. {@code slicedBy}: the column of the scanned table
     * whose equal values the steps need on one node (a GROUP BY or window by it run whole on each
     * node) where the table is held in files, which the nodes then read in slices of its values;
     * -1 otherwise. {@code slicedAlike}: the other tables in files its joins build from on each
     * node, read in slices cut as the scanned table's (TPC-H's orders beside lineitem).
     */
    record NodePipeline(Scan scan, List<PipelineStep> steps, List<RelNode> broadcasts, List<Shuffle> shuffles,
                        List<Field> fields, int slicedBy, List<TableInfo> slicedAlike) implements RelNode {
        public NodePipeline {
            steps = List.copyOf(steps);
            broadcasts = List.copyOf(broadcasts);
            shuffles = List.copyOf(shuffles);
            slicedAlike = List.copyOf(slicedAlike);
        }

        public NodePipeline(Scan scan, List<PipelineStep> steps, List<RelNode> broadcasts, List<Shuffle> shuffles,
                            List<Field> fields) {
            this(scan, steps, broadcasts, shuffles, fields, -1, List.of());
        }

        public NodePipeline(Scan scan, List<PipelineStep> steps, List<RelNode> broadcasts, List<Field> fields) {
            this(scan, steps, broadcasts, List.of(), fields);
        }
    }

    /**
     * The rows of {@code producer}, run on every node, each sent to the node that owns its
     * {@code keyColumn}'s value in the consuming pipeline's table (partitioned on that key): a
     * join's side moved to where its partners are.
     */
    record Shuffle(NodePipeline producer, int keyColumn) {
    }

    /**
     * A join of two inputs the nodes compute, neither partitioned on the join key (a partitioned
     * hash join): each input's rows are shuffled by a hash of their join key values, so that a
     * key's rows of both sides meet on one node; each node builds a hash table of the right
     * side's rows it received (spilling as any) and probes it with the left side's, then runs
     * {@code after} (filters, projections, a partial aggregate) on what comes out. The right side
     * moves first, the left once it is done, so that no node holds probe rows waiting.
     */
    record ShuffledJoin(NodePipeline left, NodePipeline right, JoinKind kind, int[] leftKeys, int[] rightKeys,
                        Expr residual, List<PipelineStep> after, List<Field> fields, Arrival leftArrival,
                        Arrival rightArrival, List<ShuffledBuild> moreBuilds) implements RelNode {
        public ShuffledJoin {
            after = List.copyOf(after);
            moreBuilds = List.copyOf(moreBuilds);
            if (kind == JoinKind.CROSS || kind == JoinKind.ANTI_NULL_AWARE || leftKeys.length == 0) {
                throw new IllegalArgumentException("a " + kind + " join cannot be split by key");
            }
        }

        /** Sides joined as they arrive. */
        public ShuffledJoin(NodePipeline left, NodePipeline right, JoinKind kind, int[] leftKeys, int[] rightKeys,
                            Expr residual, List<PipelineStep> after, List<Field> fields) {
            this(left, right, kind, leftKeys, rightKeys, residual, after, fields, Arrival.NONE, Arrival.NONE, List.of());
        }

        /** The join's own output columns, before the steps after it. */
        public List<Field> joinedFields() {
            List<Field> joined = new ArrayList<>(leftArrival.fields(left.fields()));
            if (!kind.leftOnly()) {
                joined.addAll(rightArrival.fields(right.fields()));
            }
            return joined;
        }

        /** This join with {@code step} run after it, giving rows of {@code out}. */
        public ShuffledJoin then(PipelineStep step, List<Field> out) {
            return new ShuffledJoin(left, right, kind, leftKeys, rightKeys, residual, PipelineStep.appended(after, step), out,
                    leftArrival, rightArrival, moreBuilds);
        }

        /**
         * This join with {@code join} run after it, building from {@code build}'s rows (its build a
         * {@link org.oooengine.core.fragment.JoinBuild.Shuffled} of the next slot), giving rows of {@code out}.
         */
        public ShuffledJoin thenJoined(ShuffledBuild build, PipelineStep.HashJoin join, List<Field> out) {
            List<ShuffledBuild> builds = new ArrayList<>(moreBuilds);
            builds.add(build);
            List<PipelineStep> more = new ArrayList<>(after);
            more.add(join);
            return new ShuffledJoin(left, right, kind, leftKeys, rightKeys, residual, more, out, leftArrival, rightArrival,
                    builds);
        }
    }

    /**
     * A further side of a {@link ShuffledJoin} that a join after it builds from: {@code producer}'s
     * rows sent by {@code keys} as the probe rows were, so that every partner is on the node, and
     * what the node does with them as they arrive.
     */
    record ShuffledBuild(NodePipeline producer, int[] keys, Arrival arrival) {
    }

    /**
     * What each node runs over the rows of a shuffled side it received before joining them —
     * {@code steps}, making rows of {@code fields} (a GROUP BY's partial rows merged into its
     * groups, keys first as they were sent) — or nothing ({@link #NONE}).
     */
    record Arrival(List<PipelineStep> steps, List<Field> fields) {
        public static final Arrival NONE = new Arrival(List.of(), List.of());

        public Arrival {
            steps = List.copyOf(steps);
            fields = List.copyOf(fields);
        }

        /** The columns of the side's rows as joined, of rows sent as {@code sent}. */
        public List<Field> fields(List<Field> sent) {
            return steps.isEmpty() ? sent : fields;
        }
    }

    /**
     * Steps the nodes run over rows shuffled to them by a key: {@code input}'s rows, which the
     * nodes compute, each sent to the node a hash of its {@code keys} columns picks, so that rows
     * alike in those keys meet on one node; each node runs {@code steps} over its share, and the
     * coordinator gathers what comes out. The first is a {@link PipelineStep.Window} (some of every
     * window's PARTITION BY among the keys), after a {@link PipelineStep.MergePartials} and
     * HAVING's filters when the input is a GROUP BY's partial groups; or, over such groups, a
     * whole {@link PipelineStep.Aggregate} keyed by all of the keys (TPC-H Q16's count of the
     * distinct suppliers per kind of part), or a {@link PipelineStep.PartialAggregate} keyed by
     * some (when they have too few groups to spread over the nodes), whose partial rows a
     * {@link FinalAggregate} merges, or the merged groups as they are (an INSERT's rows, written
     * where they are merged). What follows runs there too (filters, projections, windows, a top-N).
     */
    record ShuffledSteps(NodePipeline input, List<Integer> keys, List<PipelineStep> steps, List<Field> fields)
            implements RelNode {
        public ShuffledSteps {
            keys = List.copyOf(keys);
            steps = List.copyOf(steps);
            boolean merged = steps.get(0) instanceof PipelineStep.MergePartials;
            if (keys.isEmpty() || !merged && !(steps.get(0) instanceof PipelineStep.Window)) {
                throw new IllegalArgumentException("rows shuffled by key for a window, or partial groups to merge, first");
            }
            if (!input.shuffles().isEmpty()) {
                throw new IllegalArgumentException("the rows shuffled come from a pipeline that does not shuffle");
            }
            if (steps.stream().anyMatch(s -> s instanceof PipelineStep.HashJoin)
                    || steps.subList(0, steps.size() - 1).stream().anyMatch(s -> s instanceof PipelineStep.PartialAggregate)) {
                throw new IllegalArgumentException("no join after rows shuffled by key, and a partial aggregate only last");
            }
        }

        /** These steps and then {@code step}, giving rows of {@code out}. */
        public ShuffledSteps then(PipelineStep step, List<Field> out) {
            return new ShuffledSteps(input, keys, PipelineStep.appended(steps, step), out);
        }

        /** The same steps over the rows shuffled by {@code fewer} of the keys instead. */
        public ShuffledSteps keyedBy(List<Integer> fewer) {
            return new ShuffledSteps(input, fewer, steps, fields);
        }

        /** Whether the last step ends what the nodes may run (a top-N, a sort, a limit, a partial aggregate): nothing goes after it. */
        public boolean ended() {
            PipelineStep last = steps.get(steps.size() - 1);
            return last instanceof PipelineStep.TopN || last instanceof PipelineStep.Sort || last instanceof PipelineStep.Limit
                    || last instanceof PipelineStep.PartialAggregate;
        }
    }

    /**
     * The final step of a GROUP BY split in two: merges the partial states its input's nodes
     * computed ({@code keyCount} keys, then each aggregate's state) into each group's result — on
     * the coordinator, or {@code onNodes}: each group's partial rows shuffled to the node its key
     * hashes to, which merges them, so that no process holds every group. The input may be a
     * UNION ALL of such work, each input ending in the same partial aggregate (a GROUP BY over a
     * UNION ALL, INTERSECT, EXCEPT): merged on the coordinator.
     */
    record FinalAggregate(RelNode input, int keyCount, List<AggregateCall> aggregates, List<Field> fields,
                          boolean onNodes) implements RelNode {
        public FinalAggregate {
            boolean nodes = fromNodes(input) || !onNodes && input instanceof Union u
                    && u.inputs().stream().allMatch(FinalAggregate::fromNodes);
            if (!nodes) {
                throw new IllegalArgumentException("partial aggregates come from the nodes, not from " + input);
            }
            if (onNodes && (keyCount == 0 || !(input instanceof NodePipeline p) || !p.shuffles().isEmpty())) {
                throw new IllegalArgumentException("groups are merged on the nodes by key, from a pipeline that does not shuffle");
            }
        }

        private static boolean fromNodes(RelNode input) {
            return input instanceof NodePipeline || input instanceof ShuffledJoin || input instanceof IndexJoinSteps
                    || input instanceof ShuffledSteps s && s.ended()
                    && s.steps().get(s.steps().size() - 1) instanceof PipelineStep.PartialAggregate;
        }

        /** The nodes' work whose last step is the partial aggregate: the input, or the first of a union's. */
        public RelNode partials() {
            return input instanceof Union u ? u.inputs().get(0) : input;
        }
    }

    /**
     * Each input row once per item of {@code projections}, the values of its expressions over the
     * row ({@link PipelineStep.Expand}): GROUPING SETS, ROLLUP and CUBE copy each row once per
     * grouping set, keys outside the set null, beside the set's grouping id, under an ordinary
     * GROUP BY of the keys and the id.
     */
    record Expand(RelNode input, List<List<Expr>> projections, List<Field> fields) implements RelNode {
        public Expand {
            projections = new PipelineStep.Expand(projections).projections(); // checked as the nodes check it
            if (fields.size() != projections.get(0).size()) {
                throw new IllegalArgumentException(fields.size() + " fields for expanded rows of "
                        + projections.get(0).size() + " columns");
            }
        }

        public PipelineStep.Expand step() {
            return new PipelineStep.Expand(projections);
        }
    }

    /**
     * Each input row as many times as its {@code countColumn} (a BIGINT) says, none when it is not
     * positive or null: INTERSECT ALL and EXCEPT ALL's rows, from their counts on each side.
     */
    record Replicate(RelNode input, int countColumn) implements RelNode {
        @Override
        public List<Field> fields() {
            return input.fields();
        }
    }

    /**
     * LATERAL VIEW: each input row once per row {@code generator} makes of it (explode,
     * posexplode), the generated values after the row's own columns.
     */
    record Generate(RelNode input, org.oooengine.core.sql.expr.Generator generator, List<Field> fields)
            implements RelNode {
        public Generate {
            if (fields.size() != input.fields().size() + generator.types().size()) {
                throw new IllegalArgumentException(fields.size() + " fields for " + input.fields().size()
                        + " columns and " + generator.types().size() + " generated");
            }
        }
    }

    /** Literal rows (a SELECT without FROM, VALUES). */
    record Values(List<Field> fields, List<Object[]> rows) implements RelNode {
    }
}
