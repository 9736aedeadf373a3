package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.settings.SessionSettings;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Moves to the nodes the work that needs no other node's rows. A scan with the filters,
 * projections and joins above it becomes a {@link RelNode.NodePipeline} when every join in it can
 * run on each node alone:
 * <ul>
 *   <li><b>co-located</b> — both sides are partitioned alike and joined on their leading key
 *       columns (orders and lineitem on the order key): each node builds from its own partition
 *       of the smaller side;</li>
 *   <li><b>broadcast</b> — one side is estimated to send at most {@link Limits#broadcastMaxBytes()}
 *       of the columns read of it: the coordinator reads it (filtered, on the nodes) and sends its
 *       rows to every node.</li>
 * </ul>
 * A GROUP BY of such a pipeline by the column its scanned table is partitioned on runs whole on
 * each node, and what follows it may too (TPC-H Q18's orders with over 300 items). Any other
 * GROUP BY over such a pipeline is split in two — partial aggregates on every node, merged on
 * the coordinator ({@link RelNode.FinalAggregate}) — so that only groups cross the network; one
 * that cannot be split (DISTINCT) still reads only the columns it needs from the nodes. An ORDER
 * BY of such a pipeline is sorted on each node and merged on the coordinator; with a LIMIT each
 * node keeps its first rows, and a LIMIT alone stops each node once it sent enough. A window with
 * PARTITION BY over such a pipeline runs on the nodes, its rows shuffled by the partition keys
 * ({@link RelNode.ShuffledSteps}) or, partitioned by the table's key, where they are. Other joins
 * stay on the coordinator; a join input that the nodes can compute (joins of its own) is
 * gathered from them with only the columns the plan reads above it.
 */
public final class PipelinePlanner {
    /**
     * Fewer groups than this per node are not shuffled by their keys to be aggregated whole: they
     * would keep few of the nodes busy.
     */
    private static final int FEW_GROUPS_PER_NODE = 16;

    /**
     * How large a join side may be, as estimated before running, for the nodes to hold it:
     * {@code broadcastMaxBytes}, bytes of rows sent to every node (the rows a side's filters are
     * taken to keep times the stored bytes of the columns read of them; 0: never broadcast), and
     * {@code buildMaxBytes}, bytes of a hash table a node builds from its own partition or from rows
     * shuffled to it, per node, as estimated (beyond it such a join runs on the coordinator; 0: all
     * do); {@code mergeGroupsOnNodes}: whether a GROUP BY with keys merges its groups on the nodes or
     * on the coordinator; {@code cascadeGroupingSets}: whether the nodes group nested grouping sets
     * set by set ({@link CascadedGroupingSets}); {@code partialSkipPercent}: past what share of groups
     * to rows a node's partial aggregate stops grouping ({@link PipelineStep.PartialAggregate#skipPercent}).
     * The session settings that give them are {@link SessionSettings}'s {@code JOIN_*} and
     * {@code AGGREGATE_*}; what the operators may hold as they run is the runtime's
     * ({@link org.oooengine.core.cluster.RuntimeLimits}).
     */
    public record Limits(long broadcastMaxBytes, long buildMaxBytes, boolean mergeGroupsOnNodes,
                         boolean cascadeGroupingSets, int partialSkipPercent) {
        public static final Limits DEFAULTS = new Limits(SessionSettings.JOIN_BROADCAST_MAX_BYTES.defaultValue(),
                SessionSettings.JOIN_BUILD_MAX_BYTES.defaultValue(), SessionSettings.AGGREGATE_MERGE_ON_NODES.defaultValue());

        /** As above, grouping sets and partial aggregates by default. */
        public Limits(long broadcastMaxBytes, long buildMaxBytes, boolean mergeGroupsOnNodes) {
            this(broadcastMaxBytes, buildMaxBytes, mergeGroupsOnNodes,
                    SessionSettings.AGGREGATE_CASCADE_GROUPING_SETS.defaultValue(),
                    SessionSettings.AGGREGATE_PARTIAL_SKIP_PERCENT.defaultValue().intValue());
        }
    }

    private final TableLayouts layouts;
    private final Limits limits;
    private final CardinalityModel model;

    /** Bytes assumed for a string of a computed result, which has no stored size to go by. */
    private static final int DERIVED_STRING_BYTES = 32;

    /**
     * Occurrences placed whole, each with the columns any alike occurrence reads, the filters and
     * projections above them on the coordinator ({@link FilteredRepeats}).
     */
    private final java.util.Map<RelNode, BitSet> whole = new java.util.IdentityHashMap<>();
    /** Whether placing read more columns of an occurrence placed whole than known before: the plan is placed again. */
    private boolean wholeReadsGrew;

    private PipelinePlanner(TableLayouts layouts, Limits limits, CardinalityModel model) {
        this.layouts = layouts;
        this.limits = limits;
        this.model = model;
    }

    public static RelNode plan(RelNode node, TableLayouts layouts) {
        return plan(node, layouts, Limits.DEFAULTS);
    }

    public static RelNode plan(RelNode node, TableLayouts layouts, Limits limits) {
        BitSet all = new BitSet();
        all.set(0, node.fields().size());
        RelNode unions = UnionJoinPushdown.apply(node);
        CardinalityModel model = CardinalityModel.of(layouts, unions);
        RelNode preAggregated = GroupingSetsPreAggregation.apply(unions, model);
        RelNode logical = limits.cascadeGroupingSets() ? CascadedGroupingSets.apply(preAggregated) : preAggregated;
        PipelinePlanner planner = new PipelinePlanner(layouts, limits, model);
        RelNode ordered = SemiJoinReduction.apply(JoinOrder.reorder(logical, layouts, limits), model);
        RelNode eager = EagerAggregation.apply(ordered, model, (side, read) -> planner.small(planner.chain(side, read), read),
                graph -> JoinSearch.search(graph, model::rows, layouts, limits.broadcastMaxBytes()));
        planner.whole.putAll(FilteredRepeats.reads(eager));
        RelNode placed;
        do { // until every occurrence placed whole was placed with what all of its alike ones read
            planner.wholeReadsGrew = false;
            placed = planner.place(eager, all);
        } while (planner.wholeReadsGrew);
        return placed;
    }

    /** {@code node} placed, of whose output columns only {@code required} are read above it. */
    private RelNode place(RelNode node, BitSet required) {
        BitSet wholeReads = whole.get(node);
        if (wholeReads != null && !required.equals(wholeReads)) {
            BitSet before = (BitSet) wholeReads.clone();
            wholeReads.or(required);
            wholeReadsGrew |= !wholeReads.equals(before);
            return place(node, (BitSet) wholeReads.clone());
        }
        if (node instanceof RelNode.Filter f && whole.containsKey(f.input())) {
            return new RelNode.Filter(place(f.input(), union(required, Exprs.columns(f.condition()))), f.condition());
        }
        if (node instanceof RelNode.Project p && whole.containsKey(p.input())) {
            return new RelNode.Project(place(p.input(), projectInputs(p, required)), p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Aggregate written) {
            RelNode.Aggregate a = DeterminedGroupKeys.pruned(written, required);
            Chain whole = chain(a, required);
            if (whole != null) {
                return whole.gathered();
            }
            BitSet in = aggregateInputs(a);
            Chain chain = chain(a.input(), in);
            if (chain != null) {
                return splitAggregate(a, chain);
            }
            RelNode perBranch = splitOverUnion(a, in);
            if (perBranch != null) {
                return perBranch;
            }
            RelNode input = place(a.input(), in);
            RelNode onMerged = afterMergedGroups(input, a);
            if (onMerged != null) {
                return onMerged;
            }
            RelNode partials = a.aggregates().stream().allMatch(AggregateCall::splittable)
                    ? thenOnNodes(input, partialStep(a), partialFields(a)) : null;
            if (partials != null) { // each node aggregates what its join gives; the coordinator merges the groups
                return new RelNode.FinalAggregate(partials, a.keys().size(), a.aggregates(), a.fields(), false);
            }
            return new RelNode.Aggregate(input, a.keys(), a.aggregates(), a.fields());
        }
        if (node instanceof RelNode.PartialGroups g) { // not taken into a join on the nodes: merged as any
            return place(g.groups(), required);
        }
        if (node instanceof RelNode.Project p) {
            BitSet in = projectInputs(p, required);
            Chain chain = chain(p.input(), in);
            if (chain != null) {
                return chain.with(new PipelineStep.Project(pruned(p.exprs(), required)), p.fields()).gathered();
            }
            RelNode input = place(p.input(), in);
            RelNode projected = thenOnNodes(input, new PipelineStep.Project(pruned(p.exprs(), required)), p.fields());
            return projected != null ? projected : new RelNode.Project(input, p.exprs(), p.fields());
        }
        if (node instanceof RelNode.Filter f) {
            RelNode input = place(f.input(), union(required, Exprs.columns(f.condition())));
            RelNode filtered = thenOnNodes(input, new PipelineStep.Filter(f.condition()), input.fields());
            return filtered != null ? filtered : new RelNode.Filter(input, f.condition());
        }
        if (node instanceof RelNode.Join j) {
            Chain whole = chain(j, required);
            if (whole != null) { // a join nothing above took into its pipeline (a UNION ALL's branch, under a filter)
                return onlyRead(whole, required);
            }
            BitSet joined = joinInputs(j, required);
            int lw = j.left().fields().size();
            RelNode.ShuffledJoin groups = joinOfGroups(j);
            if (groups != null) {
                return groups;
            }
            RelNode.ShuffledJoin shuffled = bothShuffled(j, joined);
            if (shuffled != null) {
                return shuffled;
            }
            RelNode afterIndexJoin = broadcastAfterIndexJoin(j, joined);
            if (afterIndexJoin != null) {
                return afterIndexJoin;
            }
            return new RelNode.Join(input(j.left(), joined.get(0, lw)), input(j.right(), joined.get(lw, lw + j.right().fields().size())),
                    j.kind(), j.leftKeys(), j.rightKeys(), j.residual());
        }
        if (node instanceof RelNode.Sort s) {
            BitSet in = (BitSet) required.clone();
            s.keys().forEach(k -> in.set(k.column()));
            Chain chain = chain(s.input(), in);
            if (chain != null) { // each node sorts its rows; the coordinator merges the nodes' orders
                return new RelNode.Sort(chain.with(new PipelineStep.Sort(s.keys()), chain.fields).gathered(), s.keys());
            }
            return new RelNode.Sort(place(s.input(), in), s.keys());
        }
        if (node instanceof RelNode.Limit l && l.input() instanceof RelNode.Sort s
                && l.offset() + l.count() <= PipelineStep.TopN.MAX_COUNT) {
            BitSet in = (BitSet) required.clone();
            s.keys().forEach(k -> in.set(k.column()));
            Chain chain = chain(s.input(), in);
            if (chain != null) { // each node sends only its first rows; the coordinator keeps the first of those
                RelNode.NodePipeline first = chain.with(new PipelineStep.TopN(s.keys(), l.offset() + l.count()),
                        chain.fields).gathered();
                return new RelNode.Limit(new RelNode.Sort(first, s.keys()), l.offset(), l.count());
            }
            RelNode input = place(s.input(), in);
            if (input instanceof RelNode.ShuffledSteps w && !w.ended()) { // so do the nodes that computed a window
                RelNode.ShuffledSteps first = w.then(new PipelineStep.TopN(s.keys(), l.offset() + l.count()), w.fields());
                return new RelNode.Limit(new RelNode.Sort(first, s.keys()), l.offset(), l.count());
            }
            return new RelNode.Limit(new RelNode.Sort(input, s.keys()), l.offset(), l.count());
        }
        if (node instanceof RelNode.Limit l) {
            Chain chain = l.offset() + l.count() < 0 ? null : chain(l.input(), required);
            if (chain != null) { // each node stops once it sent as many rows as the limit may need
                return new RelNode.Limit(chain.with(new PipelineStep.Limit(l.offset() + l.count()), chain.fields).gathered(),
                        l.offset(), l.count());
            }
            return new RelNode.Limit(place(l.input(), required), l.offset(), l.count());
        }
        if (node instanceof RelNode.SingleRow s) {
            return new RelNode.SingleRow(place(s.input(), required));
        }
        if (node instanceof RelNode.Window w) {
            return placeWindow(w, required);
        }
        if (node instanceof RelNode.Expand e) {
            return placeExpand(e, required);
        }
        if (node instanceof RelNode.Replicate r) {
            BitSet in = (BitSet) required.clone();
            in.set(r.countColumn());
            return new RelNode.Replicate(place(r.input(), in), r.countColumn());
        }
        if (node instanceof RelNode.Generate g) {
            BitSet in = required.get(0, g.input().fields().size());
            in.or(Exprs.columns(g.generator().arg()));
            return new RelNode.Generate(place(g.input(), in), g.generator(), g.fields());
        }
        if (node instanceof RelNode.Union u) {
            return new RelNode.Union(u.inputs().stream().map(in -> place(in, required)).toList(), u.fields());
        }
        return node; // scans, index joins, values: they run where they are
    }

    /**
     * A window where its partitions' rows are: with PARTITION BY, on the nodes — in the pipeline
     * that makes its rows when each node holds whole partitions already (see {@link #chain}), else
     * its rows shuffled by the partition keys from the pipeline that makes them, or after a
     * window on the nodes whose partitions hold whole ones of this window (keyed by some of its
     * keys). Any other (no PARTITION BY: one partition; keyed otherwise than the rows on the
     * nodes are: a second shuffle is not planned) runs on the coordinator over the rows its input
     * gathers.
     */
    private RelNode placeWindow(RelNode.Window w, BitSet required) {
        BitSet in = w.inputsRead(required);
        if (!w.partitionKeys().isEmpty()) {
            Chain whole = chain(w, required);
            if (whole != null) {
                return onlyRead(whole, required);
            }
            Chain chain = chain(w.input(), in);
            if (chain != null && chain.shuffles.isEmpty()) {
                return shuffledWindow(w, onlyRead(chain, in));
            }
            RelNode input = place(w.input(), in);
            RelNode.ShuffledSteps merged = afterMergedGroups(input, w);
            if (merged != null) {
                return merged;
            }
            List<Integer> shared = input instanceof RelNode.ShuffledSteps shuffled && !shuffled.ended()
                    ? sharedKeys(shuffled, w.partitionKeys()) : List.of();
            if (!shared.isEmpty()) { // shuffled by the keys both windows share, each node has whole partitions of both
                return ((RelNode.ShuffledSteps) input).keyedBy(shared).then(w.step(), w.fields());
            }
            return new RelNode.Window(input, w.partitionKeys(), w.orderKeys(), w.calls(), w.fields());
        }
        Chain chain = w.input() instanceof RelNode.Scan ? chain(w.input(), in) : null;
        return new RelNode.Window(chain != null ? onlyRead(chain, in) : input(w.input(), in), w.partitionKeys(), w.orderKeys(),
                w.calls(), w.fields());
    }

    /**
     * The keys {@code shuffled}'s rows go by that are also columns of {@code partition}, a later
     * window's PARTITION BY over its output: shuffled by those alone, each node holds whole
     * partitions of the windows it runs and of the later one. Empty when there are none (a
     * key its steps moved or made is none).
     */
    private static List<Integer> sharedKeys(RelNode.ShuffledSteps shuffled, List<Expr> partition) {
        return shuffled.keys().stream().filter(k -> partition.stream().anyMatch(e -> e instanceof Expr.Column c && c.index() == k)
                && keptInPlace(shuffled.steps(), k)).toList();
    }

    /** Whether column {@code k} of the rows {@code steps} run over is column {@code k} of their output too. */
    private static boolean keptInPlace(List<PipelineStep> steps, int k) {
        for (PipelineStep step : steps) {
            boolean kept = step instanceof PipelineStep.Filter || step instanceof PipelineStep.Window
                    || step instanceof PipelineStep.MergePartials m && k < m.keyCount()
                    || step instanceof PipelineStep.Project p && k < p.exprs().size()
                    && p.exprs().get(k) instanceof Expr.Column c && c.index() == k;
            if (!kept) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code w} after a GROUP BY whose groups the nodes merge (and HAVING's filters), when each of
     * its partition keys is a group key: the partial groups are shuffled by those keys alone, so
     * that each node merges whole groups of whole partitions, filters them and computes the window.
     * Null for any other input.
     */
    private static RelNode.ShuffledSteps afterMergedGroups(RelNode input, RelNode.Window w) {
        List<PipelineStep> filters = new ArrayList<>();
        RelNode below = input;
        while (below instanceof RelNode.Filter f) {
            filters.add(0, new PipelineStep.Filter(f.condition()));
            below = f.input();
        }
        if (!(below instanceof RelNode.FinalAggregate a) || !a.onNodes()) {
            return null;
        }
        List<Integer> keys = new ArrayList<>();
        for (Expr k : w.partitionKeys()) {
            if (!(k instanceof Expr.Column c) || c.index() >= a.keyCount()) {
                return null;
            }
            if (!keys.contains(c.index())) {
                keys.add(c.index());
            }
        }
        List<PipelineStep> steps = new ArrayList<>();
        steps.add(new PipelineStep.MergePartials(a.keyCount(), a.aggregates()));
        steps.addAll(filters);
        steps.add(w.step());
        return new RelNode.ShuffledSteps((RelNode.NodePipeline) a.input(), keys, steps, w.fields());
    }

    /**
     * {@code a} over a GROUP BY whose groups the nodes merge, when each of its keys is one of that
     * GROUP BY's (TPC-H Q16 counts the distinct suppliers per kind of part: its suppliers first
     * made distinct per kind): the partial groups are shuffled by those keys alone, so that each
     * node merges whole groups and aggregates whole groups of them, and the coordinator gathers
     * the result rather than aggregate every merged group itself. When {@code a} has too few groups
     * to keep every node busy (`count(DISTINCT l_partkey)` by `l_returnflag`: 3), the partial groups
     * are shuffled by all their keys instead, and each node partially aggregates the groups it
     * merged, for the coordinator to merge. Null for any other input.
     */
    private RelNode afterMergedGroups(RelNode input, RelNode.Aggregate a) {
        if (!(input instanceof RelNode.FinalAggregate merged) || !merged.onNodes() || a.keys().isEmpty()
                || a.aggregates().stream().anyMatch(AggregateCall::distinct)) {
            return null;
        }
        List<Integer> keys = new ArrayList<>();
        for (Expr k : a.keys()) {
            if (!(k instanceof Expr.Column c) || c.index() >= merged.keyCount()) {
                return null;
            }
            if (!keys.contains(c.index())) {
                keys.add(c.index());
            }
        }
        RelNode.NodePipeline partials = (RelNode.NodePipeline) merged.input();
        PipelineStep.MergePartials merging = new PipelineStep.MergePartials(merged.keyCount(), merged.aggregates());
        long groups = model.rows(a); // (-1: not known, when the statistics are missing)
        if (groups >= 0 && groups < FEW_GROUPS_PER_NODE * layouts.nodes(partials.scan().table())
                && a.aggregates().stream().allMatch(AggregateCall::splittable)) {
            List<Integer> all = IntStream.range(0, merged.keyCount()).boxed().toList();
            RelNode.ShuffledSteps spread = new RelNode.ShuffledSteps(partials, all, List.of(merging, partialStep(a)),
                    partialFields(a));
            return new RelNode.FinalAggregate(spread, a.keys().size(), a.aggregates(), a.fields(), false);
        }
        List<PipelineStep> steps = List.of(merging, new PipelineStep.Aggregate(a.keys(), a.aggregates()));
        return new RelNode.ShuffledSteps(partials, keys, steps, a.fields());
    }

    /**
     * {@code w} over {@code rows}' rows shuffled by its partition keys: a key that is not a column
     * of theirs is computed by the nodes that send the rows, as an extra column the window's
     * nodes drop again.
     */
    private static RelNode.ShuffledSteps shuffledWindow(RelNode.Window w, RelNode.NodePipeline rows) {
        int width = rows.fields().size();
        List<Expr> sent = new ArrayList<>();
        List<Field> sentFields = new ArrayList<>(rows.fields());
        for (int i = 0; i < width; i++) {
            sent.add(new Expr.Column(i, rows.fields().get(i).type()));
        }
        List<Integer> keys = new ArrayList<>();
        for (Expr k : w.partitionKeys()) {
            if (k instanceof Expr.Column c) {
                keys.add(c.index());
            } else {
                keys.add(sent.size());
                sent.add(k);
                sentFields.add(new Field(null, "partition key " + keys.size(), k.type()));
            }
        }
        if (sent.size() == width) {
            return new RelNode.ShuffledSteps(rows, keys, List.of(w.step()), w.fields());
        }
        List<PipelineStep> steps = new ArrayList<>(rows.steps());
        steps.add(new PipelineStep.Project(sent));
        RelNode.NodePipeline keyed = new RelNode.NodePipeline(rows.scan(), steps, rows.broadcasts(), rows.shuffles(), sentFields,
                rows.slicedBy(), rows.slicedAlike());
        List<Expr> partition = keys.stream().map(k -> (Expr) new Expr.Column(k, sentFields.get(k).type())).toList();
        List<Expr> dropped = new ArrayList<>(sent.subList(0, width));
        for (int i = 0; i < w.calls().size(); i++) {
            dropped.add(new Expr.Column(sent.size() + i, w.calls().get(i).type()));
        }
        return new RelNode.ShuffledSteps(keyed, keys, List.of(new PipelineStep.Window(partition, w.orderKeys(), w.calls()),
                new PipelineStep.Project(dropped)), w.fields());
    }

    /** Grouping sets' copies made where the input's rows are: on the nodes when they make them. */
    private RelNode placeExpand(RelNode.Expand e, BitSet required) {
        BitSet in = expandInputs(e, required);
        PipelineStep.Expand step = new PipelineStep.Expand(prunedCopies(e, required));
        Chain chain = chain(e.input(), in);
        if (chain != null) {
            return chain.with(step, e.fields()).gathered();
        }
        RelNode input = place(e.input(), in);
        RelNode expanded = thenOnNodes(input, step, e.fields());
        return expanded != null ? expanded : new RelNode.Expand(input, e.projections(), e.fields());
    }

    /** The input columns an expansion reads to make its {@code required} output columns. */
    private static BitSet expandInputs(RelNode.Expand e, BitSet required) {
        BitSet in = new BitSet();
        for (List<Expr> copy : e.projections()) {
            required.stream().forEach(i -> in.or(Exprs.columns(copy.get(i))));
        }
        return in;
    }

    /** An expansion's copies with the columns no one reads above as nulls. */
    private static List<List<Expr>> prunedCopies(RelNode.Expand e, BitSet required) {
        return e.projections().stream().map(copy -> pruned(copy, required)).toList();
    }

    /**
     * An input of a join the coordinator runs: when the nodes can compute it with joins of its own,
     * they do, and send only the {@code required} columns (the others as nulls, so the columns
     * keep their places).
     */
    private RelNode input(RelNode node, BitSet required) {
        Chain chain = chain(node, required);
        if (chain == null || chain.steps.stream().noneMatch(step -> step instanceof PipelineStep.HashJoin)) {
            return place(node, required);
        }
        return onlyRead(chain, required);
    }

    /** The columns of a join's concatenated input row read by the join or (of its output, {@code required}) above it. */
    private static BitSet joinInputs(RelNode.Join j, BitSet required) {
        int lw = j.left().fields().size();
        BitSet joined = (BitSet) required.clone();
        IntStream.of(j.leftKeys()).forEach(joined::set);
        IntStream.of(j.rightKeys()).forEach(k -> joined.set(lw + k));
        if (j.residual() != null) {
            joined.or(Exprs.columns(j.residual()));
        }
        return joined;
    }

    /** {@code exprs} with those not {@code required} above as nulls: the nodes neither read nor send what no one reads. */
    private static List<Expr> pruned(List<Expr> exprs, BitSet required) {
        List<Expr> out = new ArrayList<>(exprs.size());
        for (int i = 0; i < exprs.size(); i++) {
            out.add(required.get(i) ? exprs.get(i) : new Expr.Literal(null, exprs.get(i).type()));
        }
        return out;
    }

    private static BitSet projectInputs(RelNode.Project p, BitSet required) {
        BitSet in = new BitSet();
        required.stream().forEach(i -> in.or(Exprs.columns(p.exprs().get(i))));
        return in;
    }

    private static BitSet aggregateInputs(RelNode.Aggregate a) {
        BitSet in = new BitSet();
        a.keys().forEach(k -> in.or(Exprs.columns(k)));
        a.aggregates().stream().filter(c -> c.arg() != null).forEach(c -> in.or(Exprs.columns(c.arg())));
        return in;
    }

    private static BitSet union(BitSet a, BitSet b) {
        BitSet out = (BitSet) a.clone();
        out.or(b);
        return out;
    }

    /**
     * {@code placed} followed by {@code step} (giving rows of {@code out}) where its rows are made,
     * when they are made on the nodes by other than a pipeline: a join of two shuffled sides, or an
     * index join, each node running the step over its share; null for anything else.
     */
    private static RelNode thenOnNodes(RelNode placed, PipelineStep step, List<Field> out) {
        if (placed instanceof RelNode.ShuffledJoin j) {
            return j.then(step, out);
        }
        if (placed instanceof RelNode.ShuffledSteps w) {
            return w.ended() ? null : w.then(step, out);
        }
        if (placed instanceof RelNode.IndexJoinSteps s) {
            return s.then(step, out);
        }
        RelNode.IndexJoinSteps steps = indexJoinSteps(placed);
        return steps == null ? null : steps.then(step, out);
    }

    /** An index join, with the steps its nodes run after it (none yet), or null for anything else. */
    private static RelNode.IndexJoinSteps indexJoinSteps(RelNode placed) {
        if (placed instanceof RelNode.IndexJoinSteps s) {
            return s;
        }
        if (placed instanceof RelNode.IndexJoin j && j.allIndexJoins()) {
            return new RelNode.IndexJoinSteps(j, List.of(), List.of(), j.fields());
        }
        return null;
    }

    /**
     * {@code j} joined on the nodes that make its left side's rows, when that side is an index join
     * and its right side is few rows the coordinator can send to each of them (a join whose
     * answer for a row needs only that row: inner, left, cross, semi, anti); null otherwise.
     */
    private RelNode broadcastAfterIndexJoin(RelNode.Join j, BitSet joined) {
        JoinKind kind = j.kind();
        boolean probeOnly = kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.CROSS || kind.leftOnly();
        int lw = j.left().fields().size();
        BitSet rightRead = joined.get(lw, lw + j.right().fields().size());
        Chain right = probeOnly ? chain(j.right(), rightRead) : null;
        if (right == null || !right.shuffles.isEmpty() || !small(right, rightRead)) {
            return null;
        }
        RelNode.IndexJoinSteps left = indexJoinSteps(input(j.left(), joined.get(0, lw)));
        return left == null ? null
                : left.thenJoin(onlyRead(right, rightRead), kind, j.leftKeys(), j.rightKeys(), j.residual(), j.fields());
    }

    /** The columns of a GROUP BY's partial rows: its keys, then each aggregate's count and state. */
    private static List<Field> partialFields(RelNode.Aggregate a) {
        List<Field> partial = new ArrayList<>(a.fields().subList(0, a.keys().size()));
        for (AggregateCall call : a.aggregates()) {
            partial.add(new Field(null, call + " count", SqlType.BIGINT));
            partial.add(new Field(null, call + " state", call.arg() == null ? SqlType.BIGINT
                    : call.kind().isMoment() ? SqlType.DOUBLE : call.kind().isCollect() ? call.type()
                    : call.kind() == AggregateCall.Kind.APPROX_DISTINCT ? SqlType.STRING : call.arg().type()));
            partial.add(new Field(null, call + " squares", SqlType.DOUBLE)); // a variance's; null for the others
        }
        return partial;
    }

    /**
     * A join of two GROUP BYs on grouping keys of each (TPC-DS Q97's customers and items of the
     * year's store and catalog sales, FULL OUTER JOINed; Q74's totals per customer and year, joined
     * by customer) as a join on the nodes: each side's partial groups are shuffled by their join
     * keys, so that every partial group of a group, and every group of a join key, of both sides,
     * reaches one node; the node merges them into their groups as they arrive and joins them there,
     * and what follows the join runs there too — no side's groups are gathered. Null where that
     * does not apply: a residual condition, a join key that is not a grouping key, keys of
     * different types, an aggregate that does not split, a side that is not work the nodes do alone.
     */
    private RelNode.ShuffledJoin joinOfGroups(RelNode.Join j) {
        JoinKind kind = j.kind();
        if (j.residual() != null || j.leftKeys().length == 0
                || !(kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.RIGHT || kind == JoinKind.FULL)) {
            return null;
        }
        GroupedSide left = GroupedSide.of(j.left());
        GroupedSide right = GroupedSide.of(j.right());
        if (left == null && right != null && j.left() instanceof RelNode.Join below) {
            RelNode.ShuffledJoin first = joinOfGroups(below);
            return first == null ? null : joinedAgain(first, j, right);
        }
        if (left == null || right == null || padded(kind, true) && !left.columnsOnly() || padded(kind, false) && !right.columnsOnly()) {
            return null;
        }
        int[] leftKeys = left.groupKeys(j.leftKeys());
        int[] rightKeys = right.groupKeys(j.rightKeys());
        if (leftKeys == null || rightKeys == null) {
            return null;
        }
        for (int i = 0; i < leftKeys.length; i++) {
            if (!left.groups().fields().get(leftKeys[i]).type().equals(right.groups().fields().get(rightKeys[i]).type())) {
                return null;
            }
        }
        RelNode.NodePipeline leftPartials = partialGroupsOnNodes(left.groups());
        RelNode.NodePipeline rightPartials = partialGroupsOnNodes(right.groups());
        if (leftPartials == null || rightPartials == null) {
            return null;
        }
        // the joined row is both sides' groups, keys then results; the sides' projections follow the join
        int leftWidth = left.groups().fields().size();
        List<Expr> projected = new ArrayList<>(left.projection());
        right.projection().forEach(e -> projected.add(Exprs.remap(e, c -> c + leftWidth)));
        RelNode.ShuffledJoin join = new RelNode.ShuffledJoin(leftPartials, rightPartials, kind, leftKeys, rightKeys, null,
                List.of(), j.fields(), left.arrival(), right.arrival(), List.of());
        return join.then(new PipelineStep.Project(projected), j.fields());
    }

    /**
     * {@code j}, an inner or LEFT join of a join of GROUP BYs the nodes run ({@code first}) with a
     * further GROUP BY ({@code right}) on the keys {@code first}'s probe rows were sent by, each a
     * grouping key of {@code right} (TPC-DS Q78's store sales per year, item and customer, LEFT
     * JOINed to the web's, then to the catalog's): that side's partial groups are sent by those
     * keys to the same nodes, merged as they arrive, and joined there after {@code first}'s join.
     * Null where that does not apply.
     */
    private RelNode.ShuffledJoin joinedAgain(RelNode.ShuffledJoin first, RelNode.Join j, GroupedSide right) {
        if (j.kind() != JoinKind.INNER && j.kind() != JoinKind.LEFT || first.after().size() != 1
                || !(first.after().get(0) instanceof PipelineStep.Project projected)) {
            return null;
        }
        int[] rightKeys = right.groupKeys(j.rightKeys());
        int[] sentBy = first.leftKeys(); // the probe's group keys, in the order its rows were sent by
        if (j.kind() == JoinKind.LEFT && !right.columnsOnly()) {
            return null;
        }
        if (rightKeys == null || rightKeys.length != sentBy.length) {
            return null;
        }
        int[] route = new int[sentBy.length]; // the right side's keys in that order
        BitSet covered = new BitSet();
        for (int i = 0; i < rightKeys.length; i++) {
            Expr left = projected.exprs().get(j.leftKeys()[i]);
            int at = left instanceof Expr.Column c ? IntStream.range(0, sentBy.length).filter(m -> sentBy[m] == c.index())
                    .findFirst().orElse(-1) : -1;
            if (at < 0 || covered.get(at) || !left.type().equals(right.groups().fields().get(rightKeys[i]).type())) {
                return null;
            }
            covered.set(at);
            route[at] = rightKeys[i];
        }
        RelNode.NodePipeline partials = partialGroupsOnNodes(right.groups());
        if (partials == null) {
            return null;
        }
        int leftWidth = j.left().fields().size();
        int groupsWidth = right.groups().fields().size();
        PipelineStep.HashJoin join = new PipelineStep.HashJoin(new JoinBuild.Shuffled(first.moreBuilds().size()), j.kind(),
                IntStream.of(j.leftKeys()).boxed().toList(), IntStream.of(rightKeys).boxed().toList(), null, groupsWidth);
        List<Field> joined = new ArrayList<>(j.left().fields());
        joined.addAll(right.groups().fields());
        List<Expr> out = new ArrayList<>();
        for (int c = 0; c < leftWidth; c++) {
            out.add(new Expr.Column(c, j.left().fields().get(c).type()));
        }
        right.projection().forEach(e -> out.add(Exprs.remap(e, c -> c + leftWidth)));
        return first.thenJoined(new RelNode.ShuffledBuild(partials, route, right.arrival()), join, joined)
                .then(new PipelineStep.Project(out), j.fields());
    }

    /**
     * Whether a join of {@code kind} pads its {@code left} (else right) side's columns with nulls
     * where a row has no partner: that side's projection, computed after the join, must then be of
     * its columns alone (a mark's TRUE, an EXISTS under OR, would not be null).
     */
    private static boolean padded(JoinKind kind, boolean left) {
        return kind == JoinKind.FULL || (left ? kind == JoinKind.RIGHT : kind == JoinKind.LEFT);
    }

    /** {@code a}'s input as the nodes' pipeline ending in its partial aggregate, or null where the nodes cannot compute it alone. */
    private RelNode.NodePipeline partialGroupsOnNodes(RelNode.Aggregate a) {
        if (!a.aggregates().stream().allMatch(AggregateCall::splittable)) {
            return null;
        }
        Chain chain = chain(a.input(), aggregateInputs(a));
        if (chain == null || !chain.shuffles.isEmpty()) {
            return null;
        }
        return RepeatsDropping.apply(partiallyAggregated(chain, a).gathered(), limits.partialSkipPercent());
    }

    /**
     * A join side that is a GROUP BY, maybe under projections of its columns: the aggregate and,
     * over its output, the side's columns.
     */
    private record GroupedSide(RelNode.Aggregate groups, List<Expr> projection) {
        static GroupedSide of(RelNode side) {
            List<Expr> projection = null;
            RelNode node = side;
            while (node instanceof RelNode.Project p) {
                List<Expr> outer = projection;
                projection = outer == null ? p.exprs() : outer.stream().map(e -> Exprs.substitute(e, p.exprs())).toList();
                node = p.input();
            }
            if (!(node instanceof RelNode.Aggregate a) || a.keys().isEmpty() || a.input() instanceof RelNode.Expand) {
                return null;
            }
            if (projection == null) {
                projection = new ArrayList<>();
                for (int c = 0; c < a.fields().size(); c++) {
                    projection.add(new Expr.Column(c, a.fields().get(c).type()));
                }
            }
            return new GroupedSide(a, projection);
        }

        /**
         * The grouping key each of the side's join key columns is, in order, when each is a
         * grouping key, a different one; else null. Partial groups sent by these keys alone reach
         * one node per group all the same: a group's keys include them.
         */
        int[] groupKeys(int[] joinKeys) {
            int keyCount = groups.keys().size();
            int[] out = new int[joinKeys.length];
            BitSet seen = new BitSet();
            for (int i = 0; i < joinKeys.length; i++) {
                if (!(projection.get(joinKeys[i]) instanceof Expr.Column c) || c.index() >= keyCount || seen.get(c.index())) {
                    return null;
                }
                seen.set(c.index());
                out[i] = c.index();
            }
            return out;
        }

        /** Whether the side's columns are the aggregate's own, none computed of them. */
        boolean columnsOnly() {
            return projection.stream().allMatch(e -> e instanceof Expr.Column);
        }

        /** What a node does with the partial groups it receives: merges them into this side's groups. */
        RelNode.Arrival arrival() {
            return new RelNode.Arrival(List.of(new PipelineStep.MergePartials(groups.keys().size(), groups.aggregates())),
                    groups.fields());
        }
    }

    /**
     * {@code j} as a join of both its sides shuffled by key, when each is work the nodes can do
     * alone, neither is small enough to broadcast nor (null otherwise: the coordinator joins
     * them) partitioned on the key, and each key pair has one type (a value hashes alike on both
     * sides). Only the {@code joined} columns of each side travel. An inner join builds from the
     * side estimated smaller.
     */
    private RelNode.ShuffledJoin bothShuffled(RelNode.Join j, BitSet joined) {
        JoinKind kind = j.kind();
        if (kind == JoinKind.CROSS || kind == JoinKind.ANTI_NULL_AWARE || j.leftKeys().length == 0) {
            return null;
        }
        int lw = j.left().fields().size();
        BitSet leftRead = joined.get(0, lw);
        BitSet rightRead = joined.get(lw, lw + j.right().fields().size());
        Chain left = chain(j.left(), leftRead);
        Chain right = chain(j.right(), rightRead);
        if (left == null || right == null || !left.shuffles.isEmpty() || !right.shuffles.isEmpty()
                || small(left, leftRead) || small(right, rightRead)) {
            return null;
        }
        for (int i = 0; i < j.leftKeys().length; i++) {
            if (!left.fields.get(j.leftKeys()[i]).type().equals(right.fields.get(j.rightKeys()[i]).type())) {
                return null;
            }
        }
        boolean buildLeft = kind == JoinKind.INNER && left.rows >= 0 && left.rows < right.rows;
        if (!buildsOnEachNode(buildLeft ? left : right, buildLeft ? leftRead : rightRead)) {
            return null;
        }
        if (!buildLeft) {
            return new RelNode.ShuffledJoin(onlyRead(left, leftRead), onlyRead(right, rightRead), kind, j.leftKeys(),
                    j.rightKeys(), j.residual(), List.of(), j.fields());
        }
        int rw = j.right().fields().size();
        Expr residual = j.residual() == null ? null : Exprs.remap(j.residual(), i -> i < lw ? i + rw : i - lw);
        RelNode.ShuffledJoin mirrored = new RelNode.ShuffledJoin(onlyRead(right, rightRead), onlyRead(left, leftRead), kind,
                j.rightKeys(), j.leftKeys(), residual, List.of(), new RelNode.Join(j.right(), j.left(), kind, j.rightKeys(),
                j.leftKeys(), residual).fields());
        List<Expr> leftFirst = new ArrayList<>();
        for (int i = 0; i < lw + rw; i++) {
            int from = i < lw ? rw + i : i - lw;
            leftFirst.add(new Expr.Column(from, mirrored.fields().get(from).type()));
        }
        return mirrored.then(new PipelineStep.Project(leftFirst), j.fields());
    }

    /** A chain's pipeline sending only the {@code read} columns (the others as nulls, in their places). */
    private static RelNode.NodePipeline onlyRead(Chain chain, BitSet read) {
        return chain.with(chain.onlyRead(read), chain.fields).gathered();
    }

    /**
     * A GROUP BY over a UNION ALL each of whose branches the nodes compute alone
     * ({@link UnionBranches}): each branch's pipeline ends in the partial aggregate and the
     * coordinator merges the groups of all of them; null when a branch is not such work or an
     * aggregate cannot be split.
     */
    private RelNode splitOverUnion(RelNode.Aggregate a, BitSet in) {
        List<RelNode> branches = a.aggregates().stream().allMatch(AggregateCall::splittable) ? UnionBranches.of(a.input()) : null;
        if (branches == null) {
            return null;
        }
        List<RelNode> partials = new ArrayList<>();
        for (RelNode branch : branches) {
            Chain chain = chain(branch, in);
            if (chain == null) {
                return null;
            }
            partials.add(partiallyAggregated(chain, a).gathered());
        }
        return new RelNode.FinalAggregate(new RelNode.Union(partials, partialFields(a)), a.keys().size(), a.aggregates(),
                a.fields(), false);
    }

    /** {@code chain} ended by {@code a}'s partial aggregate: set by set over grouping sets that nest, when the limits let it. */
    private Chain partiallyAggregated(Chain chain, RelNode.Aggregate a) {
        Chain ended = chain.with(partialStep(a), partialFields(a));
        return limits.cascadeGroupingSets() ? ended.withSteps(CascadedGroupingSets.cascaded(ended.steps)) : ended;
    }

    /** The nodes' half of {@code a}: their groups' partial states, grouping only while it reduces the rows. */
    private PipelineStep.PartialAggregate partialStep(RelNode.Aggregate a) {
        return new PipelineStep.PartialAggregate(a.keys(), a.aggregates(), limits.partialSkipPercent());
    }

    private RelNode splitAggregate(RelNode.Aggregate a, Chain chain) {
        if (a.aggregates().stream().allMatch(AggregateCall::splittable)) {
            RelNode.NodePipeline nodes = RepeatsDropping.apply(partiallyAggregated(chain, a).gathered(), limits.partialSkipPercent());
            // with keys, each group is merged on the node its key hashes to (unless the input shuffles already)
            boolean onNodes = limits.mergeGroupsOnNodes() && !a.keys().isEmpty() && chain.shuffles.isEmpty();
            return new RelNode.FinalAggregate(nodes, a.keys().size(), a.aggregates(), a.fields(), onNodes);
        }
        // The nodes send the columns the aggregate reads, no more; the aggregate reads them in their new places.
        BitSet read = new BitSet();
        a.keys().forEach(k -> read.or(Exprs.columns(k)));
        a.aggregates().stream().filter(c -> c.arg() != null).forEach(c -> read.or(Exprs.columns(c.arg())));
        int[] position = new int[Math.max(read.length(), 1)];
        List<Expr> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int c = read.nextSetBit(0); c >= 0; c = read.nextSetBit(c + 1)) {
            position[c] = columns.size();
            columns.add(new Expr.Column(c, chain.fields.get(c).type()));
            fields.add(chain.fields.get(c));
        }
        RelNode.NodePipeline nodes = chain.with(new PipelineStep.Project(columns), fields).gathered();
        List<Expr> keys = a.keys().stream().map(k -> Exprs.remap(k, c -> position[c])).toList();
        List<AggregateCall> calls = a.aggregates().stream().map(c -> c.arg() == null ? c
                : new AggregateCall(c.kind(), Exprs.remap(c.arg(), i -> position[i]), c.distinct(), c.type())).toList();
        return new RelNode.Aggregate(nodes, keys, calls, a.fields());
    }

    /**
     * {@code node} as work each node can do alone, or null when some of it needs other nodes' rows;
     * only {@code required} of its output columns are read above it.
     */
    private Chain chain(RelNode node, BitSet required) {
        if (node instanceof RelNode.Scan s) {
            long rows = layouts.rows(s.table()).orElse(-1);
            long bytes = layouts.bytes(s.table()).orElse(-1);
            // a table in files is keyed on the nodes only where they read it in slices of a column's values
            int sliced = s.table().primaryKey().isEmpty() ? layouts.sliceColumn(s.table()) : -1;
            Chain scanned = new Chain(s, List.of(), List.of(), List.of(), s.fields(),
                    sliced >= 0 ? sliced : PartitionColumn.of(s), rows,
                    rows < 0 || bytes < 0 ? -1 : stringBytes(s.fields(), (double) bytes / Math.max(rows, 1)), -1, sliced, -1,
                    List.of());
            return s.filter() == null ? scanned
                    : scanned.filtered(s.filter(), model.share(s.filter(), s.fields(), column -> layouts.range(s.table(), column)));
        }
        if (node instanceof RelNode.Filter f) {
            Chain below = chain(f.input(), union(required, Exprs.columns(f.condition())));
            return below == null ? null : below.filtered(f.condition(),
                    model.share(f.condition(), f.input().fields(), RowEstimates.Ranges.NONE));
        }
        if (node instanceof RelNode.Project p) {
            Chain below = chain(p.input(), projectInputs(p, required));
            return below == null ? null : below.with(new PipelineStep.Project(pruned(p.exprs(), required)), p.fields());
        }
        if (node instanceof RelNode.Join j) {
            Chain joined = join(j, required);
            long rows = model.rows(j);
            // the cardinality model's estimate, where it has one, rather than the chain's own guess
            return joined == null || rows < 0 ? joined : joined.withRows(rows);
        }
        if (node instanceof RelNode.Expand e) {
            Chain below = chain(e.input(), expandInputs(e, required));
            return below == null ? null : below.with(new PipelineStep.Expand(prunedCopies(e, required)), e.fields())
                    .withRows(below.rows < 0 ? -1 : below.rows * e.projections().size());
        }
        if (node instanceof RelNode.Window w && !w.partitionKeys().isEmpty()) {
            Chain below = chain(w.input(), w.inputsRead(required));
            boolean partitionsOnOneNode = below != null && below.keyedOnNodes() && w.partitionKeys().stream()
                    .anyMatch(k -> k instanceof Expr.Column c && c.index() == below.partitionKey);
            return partitionsOnOneNode ? below.keyedWhole().with(w.step(), w.fields()) : null;
        }
        if (node instanceof RelNode.PartialGroups g) {
            return partialGroups(g.groups());
        }
        if (node instanceof RelNode.Aggregate a) {
            Chain below = chain(a.input(), aggregateInputs(a));
            boolean groupsOnOneNode = below != null && below.keyedOnNodes()
                    && a.keys().stream().anyMatch(k -> k instanceof Expr.Column c
                    && c.index() == below.partitionKey);
            return groupsOnOneNode ? below.keyedWhole().with(new PipelineStep.Aggregate(a.keys(), a.aggregates()), a.fields())
                    .withRows(model.groups(below.rows, a.keys(), a.input().fields())) : null;
        }
        return null;
    }

    /**
     * Each node's groups of the rows it computes of {@code a}'s input, a key's values once per node
     * at most: estimated at the merged groups once per node, no more than the rows grouped.
     */
    private Chain partialGroups(RelNode.Aggregate a) {
        Chain below = chain(a.input(), aggregateInputs(a));
        if (below == null) {
            return null;
        }
        long groups = model.rows(a);
        long rows = groups < 0 || below.rows < 0 ? -1 : Math.min(below.rows, groups * layouts.nodes(below.scan.table()));
        return below.with(new PipelineStep.Aggregate(a.keys(), a.aggregates()), a.fields()).withRows(rows);
    }

    private Chain join(RelNode.Join j, BitSet required) {
        BitSet joined = joinInputs(j, required);
        int lw = j.left().fields().size();
        BitSet leftRead = joined.get(0, lw);
        BitSet rightRead = joined.get(lw, lw + j.right().fields().size());
        Chain left = chain(j.left(), leftRead);
        Chain right = chain(j.right(), rightRead);
        RelNode.Join keysOnly = right == null ? null : keysOnlyBuild(j, right);
        if (keysOnly != null) { // each node sends or builds from its distinct keys only
            RelNode.Aggregate distinct = (RelNode.Aggregate) keysOnly.right();
            right = right.with(new PipelineStep.Aggregate(distinct.keys(), List.of()), distinct.fields())
                    .withRows(model.rows(distinct));
            j = keysOnly;
            rightRead = new BitSet();
            rightRead.set(0, distinct.fields().size());
        }
        JoinKind kind = j.kind();
        if (left != null && right == null && (kind == JoinKind.INNER || kind == JoinKind.CROSS || kind == JoinKind.LEFT)
                && atMostOneRow(j.right())) {
            // a scalar subquery's row (TPC-H Q22's average balance) goes to every node, whatever computes it
            return left.probeBroadcast(j, place(j.right(), rightRead));
        }
        if (left != null && right == null && probesBroadcast(kind) && smallResult(j.right(), rightRead)) {
            // a derived table small enough to send (an aggregate's groups: TPC-DS Q64's cs_ui, Q01's
            // returns per customer) is computed first and built on every node, so the rows of the
            // probing table need not gather on the coordinator to meet it
            return left.probeBroadcast(j, place(j.right(), rightRead)).withRows(model.rows(j));
        }
        if (left == null && right == null) {
            return null;
        }
        if (left != null && right != null && kind != JoinKind.ANTI_NULL_AWARE
                && coLocated(left, j.leftKeys(), right, j.rightKeys())) {
            boolean buildLeft = kind == JoinKind.RIGHT || (kind == JoinKind.INNER && left.rows < right.rows);
            if (kind == JoinKind.INNER && !buildsAlone(buildLeft ? left : right, buildLeft ? leftRead : rightRead)) {
                buildLeft = !buildLeft; // the larger side then, rather than the coordinator
            }
            Chain build = buildLeft ? left : right;
            boolean reverse = (kind == JoinKind.SEMI || kind == JoinKind.ANTI) && left.rows >= 0
                    && left.rows < right.rows && left.shuffles.isEmpty() && buildsOnEachNode(left, leftRead);
            if (reverse) {
                RelNode whole = keysOnly == null ? SemiJoinReduction.unreduced(j) : j.right();
                Chain probing = whole.equals(j.right()) ? null : chain(whole, rightRead);
                return probing != null && coLocated(left, j.leftKeys(), probing, j.rightKeys())
                        ? reversed(new RelNode.Join(j.left(), whole, kind, j.leftKeys(), j.rightKeys(), j.residual()), left, probing)
                        : reversed(j, left, right);
            }
            if (buildsAlone(build, buildLeft ? leftRead : rightRead)) {
                return buildLeft ? swapped(j, right, left, Build.LOCAL, -1) : probe(j, left, right, Build.LOCAL, -1);
            }
        }
        Chain shuffled = left == null || right == null ? null : shuffled(j, left, leftRead, right, rightRead);
        boolean probeOnly = kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.CROSS || kind.leftOnly();
        if (left != null && probeOnly && small(right, rightRead) && (shuffled == null || cheaperToBroadcast(right, left))) {
            return probe(j, left, right.sending(rightRead), Build.BROADCAST, routeColumn(left, j.leftKeys(), right, j.rightKeys(), kind));
        }
        if (right != null && (kind == JoinKind.INNER || kind == JoinKind.RIGHT) && small(left, leftRead)
                && (shuffled == null || cheaperToBroadcast(left, right))) {
            return swapped(j, right, left.sending(leftRead), Build.BROADCAST, routeColumn(right, j.rightKeys(), left, j.leftKeys(), kind));
        }
        if (shuffled == null && left != null && right != null) {
            // a side that cannot be shuffled (its rows come from a shuffle themselves, or no side is
            // partitioned: tables in files) may still go through the coordinator, each row to the
            // node that owns its key or to those whose splits may hold it; splits routed to are
            // not stolen, so a build every node can hold goes to every node instead (above)
            Route route = probeOnly ? route(left, j.leftKeys(), right, j.rightKeys(), kind) : Route.EVERY_NODE;
            if (route.routed() && smallWhenRouted(right, rightRead, left)) {
                return probe(j, left, right.sending(rightRead), Build.BROADCAST, route.column(), route.rangeColumn());
            }
            Route back = kind == JoinKind.INNER || kind == JoinKind.RIGHT
                    ? route(right, j.rightKeys(), left, j.leftKeys(), kind) : Route.EVERY_NODE;
            if (back.routed() && smallWhenRouted(left, leftRead, right)) {
                return swapped(j, right, left.sending(leftRead), Build.BROADCAST, back.column(), back.rangeColumn());
            }
        }
        return shuffled;
    }

    /**
     * Whether {@code build}'s rows, each sent only to the node of {@code probe} that owns its key,
     * are few enough in the columns read of them: each node holds its share, so it is the share
     * that the broadcast bound applies to. TPC-H Q10's 57 K customers' orders, themselves joined
     * where orders were shuffled to customer, go on to the nodes of their lineitems so.
     */
    private boolean smallWhenRouted(Chain build, BitSet read, Chain probe) {
        return build.rows >= 0 && build.columnBytes >= 0 && build.rows * rowBytes(build, read)
                / layouts.nodes(probe.scan.table()) <= limits.broadcastMaxBytes();
    }

    /**
     * Where each row of a broadcast {@code build} side too large for every node goes: to the
     * node that owns its key ({@link #routeColumn}), else to the nodes whose splits may hold it
     * ({@link #rangeRoute}), else to every node.
     */
    private Route route(Chain probe, int[] probeKeys, Chain build, int[] buildKeys, JoinKind kind) {
        int hashed = routeColumn(probe, probeKeys, build, buildKeys, kind);
        return hashed >= 0 ? new Route(hashed, -1) : rangeRoute(probe, probeKeys, build, buildKeys, kind);
    }

    /**
     * A broadcast build's route by ranges: {@code probe}'s rows are read from a table's files that
     * hold one of the join's probe keys in order ({@link TableLayouts#ordered}: lineitem written in
     * order of l_orderkey), each split a range of it, and the splits are read where they are
     * assigned; so each build row need go only to the nodes whose splits may hold its key (TPC-H
     * Q09's 319 K lineitems of green parts, each to the node reading its order). To every node when the
     * probe's rows are not such a scan's or were moved by a shuffle, or the keys are not integers
     * or dates. Not for a NOT IN, which must see every null key.
     */
    private Route rangeRoute(Chain probe, int[] probeKeys, Chain build, int[] buildKeys, JoinKind kind) {
        if (kind == JoinKind.ANTI_NULL_AWARE || kind == JoinKind.CROSS || !probe.shuffles.isEmpty()) {
            return Route.EVERY_NODE;
        }
        TableInfo table = probe.scan.table();
        int routedBefore = rangeColumnOf(probe.steps);
        for (int c = 0; c < table.columns().size(); c++) {
            if (!layouts.ordered(table, c) || routedBefore >= 0 && c != routedBefore) {
                continue; // a split carries the range of one column: the one an earlier join routes by, if any
            }
            BitSet holding = RangeColumn.holding(probe.steps, probe.scan.fields().size(), c);
            SqlType type = table.columns().get(c).type();
            if (type.kind() != SqlType.Kind.INT && type.kind() != SqlType.Kind.BIGINT && type.kind() != SqlType.Kind.DATE) {
                continue; // the ranges are of stored values, which a key of another type does not compare with
            }
            for (int i = 0; i < probeKeys.length; i++) {
                // of the scanned column's own type: a column an inner join equated with it (5 = 5.00) may hold another
                if (holding.get(probeKeys[i]) && probe.fields.get(probeKeys[i]).type().equals(type)
                        && build.fields.get(buildKeys[i]).type().equals(type)) {
                    return new Route(buildKeys[i], c);
                }
            }
        }
        return Route.EVERY_NODE;
    }

    /** The column of the scan whose ranges a join among {@code steps} routes its build rows by, or -1. */
    private static int rangeColumnOf(List<PipelineStep> steps) {
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.HashJoin j && j.build() instanceof JoinBuild.Broadcast b && b.byRanges()) {
                return b.rangeColumn();
            }
        }
        return -1;
    }

    /**
     * Where a broadcast build's rows go: each to the node that owns its key in {@code column}
     * ({@code rangeColumn} -1), or to the nodes whose splits hold it, the splits being ranges of
     * the probe table's column {@code rangeColumn}; or ({@link #EVERY_NODE}) to every node.
     */
    private record Route(int column, int rangeColumn) {
        static final Route EVERY_NODE = new Route(-1, -1);

        boolean routed() {
            return column >= 0;
        }
    }

    /**
     * The column of a broadcast {@code build} side by which each of its rows can go to one node
     * only: one the join equates with the column {@code probe}'s rows are partitioned on, of the
     * same type (hashed alike), so the row's partners are all on the node that owns its key; -1
     * when there is none. TPC-DS Q72's 44 K catalog sales probed by customer demographics on
     * {@code cd_demo_sk} are a quarter as many on each of four nodes. Not for a NOT IN, which
     * must see every null key.
     */
    private int routeColumn(Chain probe, int[] probeKeys, Chain build, int[] buildKeys, JoinKind kind) {
        if (probe.partitionKey < 0 || !probe.hashPlaced() || kind == JoinKind.ANTI_NULL_AWARE || kind == JoinKind.CROSS) {
            return -1;
        }
        SqlType type = probe.fields.get(probe.partitionKey).type();
        for (int i = 0; i < probeKeys.length; i++) {
            if (probeKeys[i] == probe.partitionKey && build.fields.get(buildKeys[i]).type().equals(type)) {
                return buildKeys[i];
            }
        }
        return -1;
    }

    /**
     * A semi or anti join (without a residual condition) whose other side repeats its keys — TPC-DS
     * Q95's orders shipped from two warehouses, one row per pair of their lines — as the same join
     * of that side's distinct keys, or null when the keys are estimated to repeat less than twice
     * over. Only whether a key occurs matters to such a join, so each node may drop the repeats of
     * its own rows before they are sent or held: fewer rows broadcast, shuffled or built from.
     */
    private RelNode.Join keysOnlyBuild(RelNode.Join j, Chain right) {
        if ((j.kind() != JoinKind.SEMI && j.kind() != JoinKind.ANTI) || j.residual() != null || right.rows < 0) {
            return null;
        }
        int[] keys = j.rightKeys();
        List<Expr> keyExprs = new ArrayList<>();
        List<Field> keyFields = new ArrayList<>();
        for (int k : keys) {
            keyExprs.add(new Expr.Column(k, right.fields.get(k).type()));
            keyFields.add(right.fields.get(k));
        }
        RelNode.Aggregate distinct = new RelNode.Aggregate(j.right(), keyExprs, List.of(), keyFields);
        long groups = model.groups(right.rows, keyExprs, j.right().fields(), model.columns(j.right()));
        if (groups < 0 || groups * 2 > right.rows) {
            return null;
        }
        return new RelNode.Join(j.left(), distinct, j.kind(), j.leftKeys(), IntStream.range(0, keys.length).toArray(), null);
    }

    /** Join kinds whose build side may be sent whole to every node: the probe's rows are kept, or dropped, each on its own. */
    private static boolean probesBroadcast(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.CROSS || kind.leftOnly();
    }

    /**
     * Whether the rows of a plan that is not one node pipeline (an aggregate, a union, a join on
     * the coordinator) are estimated few enough, in the columns read of them, to broadcast.
     */
    private boolean smallResult(RelNode node, BitSet read) {
        long rows = model.rows(node);
        if (rows < 0) {
            return false;
        }
        double rowBytes = 0;
        for (int col = read.nextSetBit(0); col >= 0; col = read.nextSetBit(col + 1)) {
            int width = fixedWidth(node.fields().get(col).type());
            rowBytes += width > 0 ? width : DERIVED_STRING_BYTES;
        }
        return rows * Math.max(rowBytes, 1) <= limits.broadcastMaxBytes();
    }

    /** Whether {@code node} gives one row or none: a scalar subquery, a GROUP BY without keys. */
    static boolean atMostOneRow(RelNode node) {
        return node instanceof RelNode.SingleRow
                || node instanceof RelNode.Aggregate a && a.keys().isEmpty()
                || node instanceof RelNode.Project p && atMostOneRow(p.input())
                || node instanceof RelNode.Values v && v.rows().size() <= 1;
    }

    /**
     * Whether each node can build a hash table of {@code c} from its own partition: rows shuffled
     * by other nodes it cannot wait for, broadcast rows come with the pipeline.
     */
    private boolean buildsAlone(Chain c, BitSet read) {
        return c.shuffles.isEmpty() && buildsOnEachNode(c, read);
    }

    /**
     * Whether sending {@code build}'s rows to every node moves fewer rows than a shuffle would
     * (which sends both sides' rows at most once): a build much smaller than the probe side.
     */
    private boolean cheaperToBroadcast(Chain build, Chain probe) {
        return broadcastMovesLess(build.rows, probe.rows, layouts.nodes(probe.scan.table()));
    }

    /**
     * Whether sending {@code buildRows} to every one of {@code nodes} nodes moves no more rows than
     * shuffling the {@code probeRows} would: the rule of {@link #cheaperToBroadcast}, also what the
     * weak-scaling model ({@code optimizer.scaling.WeakScalingModel}) applies as a cluster grows.
     */
    public static boolean broadcastMovesLess(long buildRows, long probeRows, int nodes) {
        return buildRows * (nodes - 1L) <= probeRows;
    }

    /**
     * {@code probe}'s rows joined with {@code build}'s on each node; an inner or semi join keeps
     * (as estimated) the share of the probe's rows that the build's filters keep of its table
     * (a foreign key's partners: parts of one brand keep lineitems of that brand).
     */
    private Chain probe(RelNode.Join j, Chain probe, Chain build, Build from, int shuffleKey) {
        return probe(j, probe, build, from, shuffleKey, -1);
    }

    /** As above, a broadcast build routed by the ranges of the probe's table column {@code rangeColumn} where it is one. */
    private Chain probe(RelNode.Join j, Chain probe, Chain build, Build from, int shuffleKey, int rangeColumn) {
        Chain joined = probe.probe(j, build, from, shuffleKey, rangeColumn);
        long table = layouts.rows(build.scan.table()).orElse(-1);
        boolean filters = j.kind() == JoinKind.INNER || j.kind() == JoinKind.SEMI;
        return filters && table > 0 && build.rows >= 0 && build.rows < table
                ? joined.estimated((double) build.rows / table) : joined;
    }

    /**
     * The join with one side's rows shuffled to the nodes where their partners are: the other side
     * is a table partitioned on its join key (customer on c_custkey, partsupp on ps_partkey), so
     * each node joins the rows sent to it with its own partition. The shuffled side is held in
     * each node's hash table, so it must fit as a co-located build does; of two candidates the
     * smaller moves. Null when neither side is partitioned on its key.
     */
    private Chain shuffled(RelNode.Join j, Chain left, BitSet leftRead, Chain right, BitSet rightRead) {
        JoinKind kind = j.kind();
        // an outer join's kept rows may go to the nodes of the other side too, and be built from
        // there (TPC-DS Q72's 20 K sales to meet their catalog returns, rather than 144 K returns
        // sent to every node): each goes to one node, one whose key is null too
        int toLeft = kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.RIGHT || kind == JoinKind.SEMI
                || kind == JoinKind.ANTI ? partnerKey(left, j.leftKeys(), right, j.rightKeys(), rightRead) : -1;
        int toRight = kind == JoinKind.INNER || kind == JoinKind.RIGHT || kind == JoinKind.LEFT
                ? partnerKey(right, j.rightKeys(), left, j.leftKeys(), leftRead) : -1;
        if (toLeft >= 0 && (toRight < 0 || right.rows <= left.rows)) {
            return probe(j, left, right.sending(rightRead), Build.SHUFFLE, j.rightKeys()[toLeft]);
        }
        if (toRight >= 0) {
            return swapped(j, right, left.sending(leftRead), Build.SHUFFLE, j.leftKeys()[toRight]);
        }
        int keptToRight = kind == JoinKind.SEMI ? partnerKey(right, j.rightKeys(), left, j.leftKeys(), leftRead) : -1;
        if (keptToRight >= 0 && right.shuffles.isEmpty()) {
            return reversedShuffled(j, left, right, j.leftKeys()[keptToRight]);
        }
        return null;
    }

    /**
     * A semi join whose kept (left) side is not partitioned on the key but the other side is (TPC-H
     * Q20's year of lineitem with some parts' partsupp): the kept rows are shuffled by
     * {@code shuffleKey} to the nodes that own their partners, each node builds its hash table
     * from those it receives and scans its partition of the other side to mark the kept rows
     * that have a match; those come out at the end, partitioned as the other side is. (Not for
     * an anti join: a shuffle drops rows with a null key, which NOT EXISTS keeps.)
     */
    private static Chain reversedShuffled(RelNode.Join j, Chain kept, Chain probing, int shuffleKey) {
        int lw = j.left().fields().size();
        int rw = j.right().fields().size();
        Expr residual = j.residual() == null ? null : Exprs.remap(j.residual(), i -> i < lw ? i + rw : i - lw);
        List<RelNode.Shuffle> moved = new ArrayList<>(probing.shuffles);
        moved.add(new RelNode.Shuffle(kept.gathered(), shuffleKey));
        List<PipelineStep> steps = new ArrayList<>(probing.steps);
        steps.add(new PipelineStep.HashJoin(new JoinBuild.Shuffled(moved.size() - 1), JoinKind.RIGHT_SEMI,
                Chain.boxed(j.rightKeys()), Chain.boxed(j.leftKeys()), residual, lw));
        return new Chain(probing.scan, steps, probing.broadcasts, moved, j.fields(), shuffleKey,
                RowEstimates.kept(kept.rows, RowEstimates.CONJUNCT_SELECTIVITY), kept.columnBytes, -1, -1, probing.slicedBy,
                probing.slicedAlike);
    }

    /**
     * The key pair by which {@code moved}'s rows can go to the nodes of {@code stays}: one that
     * equates {@code stays}' partition column with a column of {@code moved} of the same type
     * (hashed alike); -1 when there is none or {@code moved} cannot be held.
     */
    private int partnerKey(Chain stays, int[] staysKeys, Chain moved, int[] movedKeys, BitSet movedRead) {
        int key = stays.partitionKey;
        if (key < 0 || stays.rows < 0 || !stays.hashPlaced() || !moved.shuffles.isEmpty()
                || !buildsOnEachNode(moved, movedRead)) {
            return -1;
        }
        SqlType type = stays.fields.get(key).type();
        for (int i = 0; i < staysKeys.length; i++) {
            if (staysKeys[i] == key && moved.fields.get(movedKeys[i]).type().equals(type)) {
                return i;
            }
        }
        return -1;
    }

    /** Rows the nodes compute and that are few enough, in the columns read of them, to send to each node. */
    private boolean small(Chain c, BitSet read) {
        return c != null && c.rows >= 0 && c.columnBytes >= 0 && c.rows * rowBytes(c, read) <= limits.broadcastMaxBytes();
    }

    /** Rows of a node's own partition few enough, in the columns read of them, to build a hash table of. */
    private boolean buildsOnEachNode(Chain c, BitSet read) {
        return c.rows >= 0 && c.columnBytes >= 0
                && c.rows * rowBytes(c, read) / layouts.nodes(c.scan.table()) <= limits.buildMaxBytes();
    }

    /** Bytes of the columns {@code read} of one of a chain's rows: fixed-width types by their width, strings estimated. */
    private static double rowBytes(Chain c, BitSet read) {
        double bytes = 0;
        for (int col = read.nextSetBit(0); col >= 0; col = read.nextSetBit(col + 1)) {
            int width = fixedWidth(c.fields.get(col).type());
            bytes += width > 0 ? width : c.columnBytes;
        }
        return Math.max(bytes, 1);
    }

    /** Stored bytes of a value of a fixed-width type; 0 for strings. */
    private static int fixedWidth(SqlType t) {
        return switch (t.kind()) {
            case BOOLEAN -> 1;
            case TINYINT, SMALLINT, INT, DATE -> 4; // stored as INT
            case BIGINT, FLOAT, DOUBLE, DECIMAL -> 8;
            default -> 0;
        };
    }

    /** The stored bytes of a string column of a table of these columns and {@code rowBytes} per row. */
    private static double stringBytes(List<Field> fields, double rowBytes) {
        double fixed = 0;
        int strings = 0;
        for (Field f : fields) {
            int width = fixedWidth(f.type());
            fixed += width;
            strings += width == 0 ? 1 : 0;
        }
        return Math.max(1, (rowBytes - fixed) / Math.max(strings, 1));
    }

    /**
     * Joined on both tables' leading key columns, the tables partitioned alike (or tables in
     * files read in slices of their keys cut alike: TPC-H's lineitem and orders, each in order of
     * its order key, or one table joined with itself): every match is on one node.
     */
    private boolean coLocated(Chain left, int[] leftKeys, Chain right, int[] rightKeys) {
        if (left.rows < 0 || right.rows < 0) {
            return false;
        }
        boolean alike = left.hashPlaced() && right.hashPlaced()
                ? layouts.partitionedAlike(left.scan.table(), right.scan.table())
                : left.sliceColumn >= 0 && right.sliceColumn >= 0 && (left.scan.table().equals(right.scan.table())
                ? left.sliceColumn == right.sliceColumn : slicedAlike(left, right));
        if (!alike) {
            return false;
        }
        return IntStream.range(0, leftKeys.length).anyMatch(i -> left.partitionedBy(leftKeys[i])
                && right.partitionedBy(rightKeys[i])
                && left.fields.get(leftKeys[i]).type().equals(right.fields.get(rightKeys[i]).type()));
    }

    /**
     * Whether two tables in files, each read in slices of its key, can be read in slices cut
     * alike: the slices of the probing side's table are cut where its splits' values start, and
     * the other table's splits are read by the nodes whose slices their values meet, so the two
     * keys must hold values of one type. Neither side may route broadcast rows by the ranges of
     * its splits (those are its own table's splits' ranges, which a slice cut by another table's
     * does not keep), nor a pipeline either builds from on each node.
     */
    private static boolean slicedAlike(Chain left, Chain right) {
        SqlType.Kind leftType = left.scan.table().columns().get(left.sliceColumn).type().kind();
        SqlType.Kind rightType = right.scan.table().columns().get(right.sliceColumn).type().kind();
        return leftType == rightType && !routesByRanges(left.steps) && !routesByRanges(right.steps);
    }

    /** Whether a join among {@code steps}, or among those of a pipeline one builds from on each node, routes its build rows by ranges. */
    private static boolean routesByRanges(List<PipelineStep> steps) {
        return steps.stream().anyMatch(step -> step instanceof PipelineStep.HashJoin j
                && (j.build() instanceof JoinBuild.Broadcast b && b.byRanges()
                || j.build() instanceof JoinBuild.Local l && routesByRanges(l.pipeline().steps())));
    }

    /**
     * A co-located semi or anti join whose kept (left) side is the smaller, run the other way round
     * (TPC-H Q21's EXISTS and NOT EXISTS over all of lineitem): each node builds its hash table
     * from its part of the kept rows — their pipeline, with its broadcasts, runs as the build —
     * and scans its partition of the other side to mark the kept rows that have a match; those
     * (or the others) come out at the end.
     */
    private static Chain reversed(RelNode.Join j, Chain kept, Chain probing) {
        JoinKind kind = j.kind() == JoinKind.SEMI ? JoinKind.RIGHT_SEMI : JoinKind.RIGHT_ANTI;
        int lw = j.left().fields().size();
        int rw = j.right().fields().size();
        Expr residual = j.residual() == null ? null : Exprs.remap(j.residual(), i -> i < lw ? i + rw : i - lw);
        int offset = probing.broadcasts.size();
        ScanPipeline keptRows = new ScanPipeline(kept.scan.table().storage(), kept.scan.fields().size(), new BitSet(),
                kept.steps, kept.sliceColumn).withBuilds(b -> b instanceof JoinBuild.Broadcast x ? x.shifted(offset) : b);
        List<PipelineStep> steps = new ArrayList<>(probing.steps);
        steps.add(new PipelineStep.HashJoin(new JoinBuild.Local(keptRows), kind, Chain.boxed(j.rightKeys()),
                Chain.boxed(j.leftKeys()), residual, lw));
        List<RelNode> broadcasts = new ArrayList<>(probing.broadcasts);
        broadcasts.addAll(kept.broadcasts);
        return new Chain(probing.scan, steps, broadcasts, probing.shuffles, j.fields(), kept.partitionKey,
                RowEstimates.kept(kept.rows, RowEstimates.CONJUNCT_SELECTIVITY), kept.columnBytes, kept.partitionAlias,
                probing.sliceColumn, probing.sliceColumn >= 0 ? probing.sliceColumn : probing.slicedBy,
                probing.alikeWith(kept));
    }

    /**
     * {@code j} probed from its right side: a left (or right) join becomes the mirrored kind, and
     * a projection puts the left columns first again.
     */
    private Chain swapped(RelNode.Join j, Chain probe, Chain build, Build built, int shuffleKey) {
        return swapped(j, probe, build, built, shuffleKey, -1);
    }

    /** As above, a broadcast build routed by the ranges of the probe's table column {@code rangeColumn} where it is one. */
    private Chain swapped(RelNode.Join j, Chain probe, Chain build, Build built, int shuffleKey, int rangeColumn) {
        JoinKind kind = j.kind() == JoinKind.RIGHT ? JoinKind.LEFT : j.kind() == JoinKind.LEFT ? JoinKind.RIGHT : j.kind();
        int lw = j.left().fields().size();
        int rw = j.right().fields().size();
        Expr residual = j.residual() == null ? null : Exprs.remap(j.residual(), i -> i < lw ? i + rw : i - lw);
        RelNode.Join mirrored = new RelNode.Join(j.right(), j.left(), kind, j.rightKeys(), j.leftKeys(), residual);
        Chain joined = probe(mirrored, probe, build, built, shuffleKey, rangeColumn);
        List<Expr> leftFirst = new ArrayList<>();
        for (int i = 0; i < lw + rw; i++) {
            int from = i < lw ? rw + i : i - lw;
            leftFirst.add(new Expr.Column(from, joined.fields.get(from).type()));
        }
        return joined.with(new PipelineStep.Project(leftFirst), j.fields());
    }

    /** Where a join step on the nodes builds its hash table from. */
    private enum Build { LOCAL, BROADCAST, SHUFFLE }

    /**
     * A scan and the steps each node runs after it, the plans the coordinator runs to broadcast
     * their rows, the pipelines whose rows the nodes shuffle to each other, the output's fields, the rows estimated to come out (filters lower the scanned
     * table's count), and the scanned table's stored bytes per row and column (-1: not on the nodes).
     */
    private record Chain(RelNode.Scan scan, List<PipelineStep> steps, List<RelNode> broadcasts,
                         List<RelNode.Shuffle> shuffles, List<Field> fields, int partitionKey, long rows,
                         double columnBytes, int partitionAlias, int sliceColumn, int slicedBy,
                         List<TableInfo> slicedAlike) {
        /**
         * A chain whose rows are where {@code partitionKey} says and no other column says the
         * same, placed by the hash of its value, that needs no table in files read in slices.
         */
        Chain(RelNode.Scan scan, List<PipelineStep> steps, List<RelNode> broadcasts, List<RelNode.Shuffle> shuffles,
              List<Field> fields, int partitionKey, long rows, double columnBytes) {
            this(scan, steps, broadcasts, shuffles, fields, partitionKey, rows, columnBytes, -1, -1, -1, List.of());
        }

        Chain with(PipelineStep step, List<Field> out) {
            return new Chain(scan, PipelineStep.appended(steps, step), broadcasts, shuffles, out,
                    PartitionColumn.after(step, partitionKey), rows, columnBytes,
                    PartitionColumn.after(step, partitionAlias), sliceColumn, slicedBy, slicedAlike);
        }

        /**
         * Whether each value of the partition column has all its rows on one node: the engine's
         * own tables partitioned by their key, or a table in files its nodes read in slices of a
         * column's values ({@link #sliceColumn}).
         */
        boolean keyedOnNodes() {
            return partitionKey >= 0 && rows >= 0 && (!scan.table().primaryKey().isEmpty() || sliceColumn >= 0);
        }

        /** Whether the partition column's values are placed on the nodes by their hash (the engine's own tables'). */
        boolean hashPlaced() {
            return sliceColumn < 0;
        }

        /** This chain, relying on its partition column's values being whole on each node: a table in files read in slices. */
        Chain keyedWhole() {
            return sliceColumn < 0 ? this : new Chain(scan, steps, broadcasts, shuffles, fields, partitionKey, rows,
                    columnBytes, partitionAlias, sliceColumn, sliceColumn, slicedAlike);
        }

        /**
         * The tables in files read in this chain's slices once it builds on each node from {@code
         * built}'s rows: those of both chains, and {@code built}'s own table where it is another
         * one read in slices (cut as this chain's table is, so that the slices hold the same values).
         */
        List<TableInfo> alikeWith(Chain built) {
            List<TableInfo> tables = new ArrayList<>(slicedAlike);
            TableInfo other = built.scan.table();
            if (built.sliceColumn >= 0 && !other.equals(scan.table()) && !tables.contains(other)) {
                tables.add(other);
            }
            built.slicedAlike.stream().filter(t -> !tables.contains(t) && !t.equals(scan.table())).forEach(tables::add);
            return List.copyOf(tables);
        }

        /** Whether {@code column} holds the value the rows are partitioned by: the partition column, or one an inner join equated with it. */
        boolean partitionedBy(int column) {
            return column >= 0 && (column == partitionKey || column == partitionAlias);
        }

        /** The chain with {@code condition} applied, estimated to keep {@code share} of its rows. */
        Chain filtered(Expr condition, double share) {
            return with(new PipelineStep.Filter(condition), fields).estimated(share);
        }

        /** The same chain with {@code other} steps, of the same output. */
        Chain withSteps(List<PipelineStep> other) {
            return new Chain(scan, other, broadcasts, shuffles, fields, partitionKey, rows, columnBytes, partitionAlias,
                    sliceColumn, slicedBy, slicedAlike);
        }

        /** The same chain estimated to send {@code estimate} rows. */
        Chain withRows(long estimate) {
            return new Chain(scan, steps, broadcasts, shuffles, fields, partitionKey, estimate, columnBytes, partitionAlias,
                    sliceColumn, slicedBy, slicedAlike);
        }

        /** The same chain estimated to send {@code share} of the rows it did (groups, or rows a filter keeps). */
        Chain estimated(double share) {
            return new Chain(scan, steps, broadcasts, shuffles, fields, partitionKey, RowEstimates.kept(rows, share),
                    columnBytes, partitionAlias, sliceColumn, slicedBy, slicedAlike);
        }

        /**
         * This chain probing {@code build}'s rows: built on each node from its own partition,
         * broadcast (routed by {@code shuffleKey}, by ranges of this chain's table column
         * {@code rangeColumn} where it is one), or shuffled by {@code shuffleKey}.
         */
        Chain probe(RelNode.Join j, Chain build, Build from, int shuffleKey, int rangeColumn) {
            if (from == Build.LOCAL && sliceColumn >= 0 && slicedBy < 0) { // matches only within a slice
                return keyedWhole().probe(j, build, from, shuffleKey, rangeColumn);
            }
            List<RelNode> sent = new ArrayList<>(broadcasts);
            List<RelNode.Shuffle> moved = new ArrayList<>(shuffles);
            JoinBuild source = switch (from) {
                case LOCAL -> {
                    // the build's own broadcasts come along, numbered after this chain's
                    int shift = sent.size();
                    sent.addAll(build.broadcasts);
                    // read in the same slices as this chain's table where it is a table in files
                    yield new JoinBuild.Local(new ScanPipeline(build.scan.table().storage(), build.scan.fields().size(),
                            new BitSet(), build.steps, build.sliceColumn).withBuilds(b -> b instanceof JoinBuild.Broadcast x
                            ? x.shifted(shift) : b));
                }
                case BROADCAST -> { // shuffleKey: the build column that routes each row to one node, or -1
                    sent.add(build.gathered());
                    yield new JoinBuild.Broadcast(sent.size() - 1, shuffleKey, rangeColumn);
                }
                case SHUFFLE -> {
                    moved.add(new RelNode.Shuffle(build.gathered(), shuffleKey));
                    yield new JoinBuild.Shuffled(moved.size() - 1);
                }
            };
            return joined(j, source, build.fields.size(), sent, moved, from == Build.LOCAL ? alikeWith(build) : slicedAlike);
        }

        /** This chain joined on each node with the rows of {@code rows}, which the coordinator computes and sends to every node. */
        Chain probeBroadcast(RelNode.Join j, RelNode rows) {
            List<RelNode> sent = new ArrayList<>(broadcasts);
            sent.add(rows);
            return joined(j, new JoinBuild.Broadcast(sent.size() - 1), rows.fields().size(), sent, shuffles, slicedAlike);
        }

        private Chain joined(RelNode.Join j, JoinBuild source, int buildWidth, List<RelNode> sent,
                             List<RelNode.Shuffle> moved, List<TableInfo> alike) {
            PipelineStep step = new PipelineStep.HashJoin(source, j.kind(), boxed(j.leftKeys()), boxed(j.rightKeys()),
                    j.residual(), buildWidth);
            List<PipelineStep> more = new ArrayList<>(steps);
            more.add(step);
            // the build rows a right or full join adds have nulls for the probe's columns, its
            // partition column too, on whichever node they were: a GROUP BY it may not run whole there
            boolean padsProbe = j.kind() == JoinKind.RIGHT || j.kind() == JoinKind.FULL;
            return padsProbe ? new Chain(scan, more, sent, moved, j.fields(), -1, rows, columnBytes, -1, -1, slicedBy, alike)
                    : new Chain(scan, more, sent, moved, j.fields(), partitionKey, rows, columnBytes, aliasAfter(j),
                    sliceColumn, slicedBy, alike);
        }

        /**
         * Where the partition value is besides the partition column after {@code j} on this chain's
         * rows: an inner join on the partition column gives the build's key column the same
         * value (TPC-H Q21's l1.l_orderkey, built from where orders is scanned, is as good as
         * o_orderkey to meet lineitem l2 on each node).
         */
        private int aliasAfter(RelNode.Join j) {
            if (j.kind() != JoinKind.INNER || partitionKey < 0) {
                return j.kind().leftOnly() || j.kind() == JoinKind.LEFT ? partitionAlias : -1;
            }
            SqlType type = fields.get(partitionKey).type();
            for (int i = 0; i < j.leftKeys().length; i++) {
                int built = fields.size() + j.rightKeys()[i];
                if (j.leftKeys()[i] == partitionKey && j.fields().get(built).type().equals(type)) {
                    return built;
                }
            }
            return partitionAlias;
        }

        /**
         * This chain with the columns not {@code read} as nulls in their places, so that rows sent
         * elsewhere (a broadcast or shuffled build side, rows gathered) carry no more than is read
         * of them: TPC-DS Q72 shuffled all 34 columns of catalog_sales to join on one.
         */
        Chain sending(BitSet read) {
            return read.nextClearBit(0) >= fields.size() ? this : with(onlyRead(read), fields);
        }

        /** Each column kept where {@code read}, else a null of its type. */
        PipelineStep.Project onlyRead(BitSet read) {
            List<Expr> kept = new ArrayList<>();
            for (int i = 0; i < fields.size(); i++) {
                SqlType type = fields.get(i).type();
                kept.add(read.get(i) ? new Expr.Column(i, type) : new Expr.Literal(null, type));
            }
            return new PipelineStep.Project(kept);
        }

        RelNode.NodePipeline gathered() {
            return new RelNode.NodePipeline(scan, steps, broadcasts, shuffles, fields, slicedBy, slicedAlike);
        }

        private static List<Integer> boxed(int[] keys) {
            return IntStream.of(keys).boxed().toList();
        }
    }
}
