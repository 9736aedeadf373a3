package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprText;

/**
 * A plan as EXPLAIN prints it: an indented tree, one operator per line, each naming its output
 * columns and the expressions it evaluates in SQL, with its estimated rows where the tables' row
 * counts are known. Lines marked {@code [each node]} run on every node over its own rows (the
 * steps of a pipeline, the last one first, down to its scan); the others on the coordinator.
 * Under a pipeline come the plans whose rows it receives: broadcast to every node, or shuffled
 * to the node that owns their key.
 */
public final class PlanPrinter {
    private static final String ON_NODES = "[each node] ";

    /**
     * What EXPLAIN knows besides the placed plan: the tables' row counts and spans, and the scans
     * of the plan before placement, whose columns name those of a build the nodes read from their
     * own partition (the placed plan keeps only the table's name).
     */
    public record Context(TableLayouts layouts, List<RelNode.Scan> scans, Shared shared) {
        public static final Context NONE = new Context(TableLayouts.NONE, List.of(), Shared.NONE);

        /** For a plan placed from {@code logical}. */
        public static Context of(RelNode logical, TableLayouts layouts) {
            return new Context(layouts, scansOf(logical), Shared.NONE);
        }

        /** The same, with the subplans the executor computes once. */
        public Context with(Shared s) {
            return new Context(layouts, scans, s);
        }

        /** The scans of a plan, those of an index join's hash-join alternative included. */
        static List<RelNode.Scan> scansOf(RelNode plan) {
            List<RelNode.Scan> scans = new ArrayList<>();
            collectScans(plan, scans);
            return List.copyOf(scans);
        }

        private static void collectScans(RelNode n, List<RelNode.Scan> out) {
            if (n instanceof RelNode.Scan s) {
                out.add(s);
            } else if (n instanceof RelNode.IndexJoinCandidate c) {
                collectScans(c.hashJoins(), out);
            }
            inputs(n).forEach(in -> collectScans(in, out));
        }
    }

    /**
     * The subplans that occur more than once alike and that the executor computes once, replaying
     * their rows where they occur again: EXPLAIN prints each once, and a line where it is reused.
     */
    public interface Shared {
        Shared NONE = new Shared() {
            @Override
            public int key(RelNode node) {
                return -1;
            }

            @Override
            public int uses(int key) {
                return 0;
            }
        };

        /** The key under which {@code node}'s rows are computed once, or -1 when computed where it occurs. */
        int key(RelNode node);

        /** How many times the subplan of {@code key} occurs. */
        int uses(int key);

        /** The occurrence of {@code key} that a run computed, the others replaying its rows; null before a run. */
        default RelNode computedAt(int key) {
            return null;
        }
    }

    /** What EXPLAIN appends to each operator's line: the executor's notes, EXPLAIN ANALYZE's measurements. */
    @FunctionalInterface
    public interface Notes {
        String of(RelNode node);

        /**
         * The note of a scan whose splits the nodes read where they are assigned, whatever the
         * session says of sharing them (each a slice of a key's values, or ranges a join routes its
         * build rows by); by default that of any scan.
         */
        default String ofScanReadWhereAssigned(RelNode.Scan scan) {
            return of(scan);
        }
    }

    private final PlanEstimates estimates;
    private final Notes annotation;
    private final Shared shared;
    /** By key, the number each shared subplan met so far is shown as. */
    private final Map<Integer, Integer> sharedShown = new java.util.HashMap<>();
    /** The keys of the shared subplans printed in full. */
    private final java.util.Set<Integer> sharedPrinted = new java.util.HashSet<>();
    private final List<String> out = new ArrayList<>();

    private PlanPrinter(Context context, Notes annotation) {
        this.estimates = new PlanEstimates(context.layouts(), context.scans());
        this.annotation = annotation;
        this.shared = context.shared();
    }

    public static List<String> lines(RelNode root) {
        return lines(root, Context.NONE, n -> "");
    }

    /** The tree with {@code annotation} appended to each operator's line (EXPLAIN ANALYZE's measurements). */
    public static List<String> lines(RelNode root, Function<RelNode, String> annotation) {
        return lines(root, Context.NONE, annotation::apply);
    }

    public static List<String> lines(RelNode root, Context context, Notes annotation) {
        PlanPrinter printer = new PlanPrinter(context, annotation);
        printer.print(root, "");
        return printer.out;
    }

    /** {@code n} and what it reads; a subplan computed once in full where it first occurs, one line elsewhere. */
    private void print(RelNode n, String indent) {
        int key = shared.key(n);
        if (key >= 0) {
            int number = sharedShown.computeIfAbsent(key, k -> sharedShown.size() + 1);
            RelNode computed = shared.computedAt(key);
            if (computed != null ? computed != n : sharedPrinted.contains(key)) {
                add(indent, "Shared #" + number + " reused: its rows replayed from where it is computed", estimates.rows(n),
                        annotation.of(n));
                return;
            }
            sharedPrinted.add(key);
            out.add(indent + "Shared #" + number + ": computed once here, its rows replayed to each of its "
                    + shared.uses(key) + " uses");
        }
        printOperator(n, indent);
    }

    private void printOperator(RelNode n, String indent) {
        if (n instanceof RelNode.NodePipeline p) {
            printPipeline(p, indent, null, null);
        } else if (n instanceof RelNode.ShuffledJoin j) {
            printShuffledJoin(j, indent);
        } else if (n instanceof RelNode.IndexJoinSteps s) {
            printIndexJoinSteps(s, indent);
        } else if (n instanceof RelNode.FinalAggregate a) {
            printFinalAggregate(a, indent);
        } else if (n instanceof RelNode.ShuffledSteps w) {
            printShuffledSteps(w, indent);
        } else if (n instanceof RelNode.Limit l && l.input() instanceof RelNode.Sort s) {
            // ORDER BY ... LIMIT keeps only the first rows as it sorts: the sort hands on no more
            add(indent, describe(l), estimates.rows(l), annotation.of(l));
            add(indent + "  ", describe(s), PipelineRows.limited(estimates.rows(s), l.offset() + l.count()), annotation.of(s));
            print(s.input(), indent + "    ");
        } else {
            add(indent, describe(n), estimates.rows(n), annotation.of(n));
            for (RelNode c : inputs(n)) {
                print(c, indent + "  ");
            }
        }
    }

    private void add(String indent, String text, long rows, String annotated) {
        out.add(indent + text + rowsText(rows) + annotated);
    }

    /**
     * A pipeline of the nodes under the line that receives its rows ({@code head}; by default the
     * coordinator's gather), of whose columns only {@code sent} are read (null: all).
     */
    private void printPipeline(RelNode.NodePipeline p, String indent, BitSet sent, String head) {
        printPipeline(p, indent, sent, head, estimates.pipeline(p).outputRows());
    }

    /** As above, the line's rows given: those {@code p} hands on where it is not what the coordinator gathers. */
    private void printPipeline(RelNode.NodePipeline p, String indent, BitSet sent, String head, long rowsOut) {
        int width = p.scan().fields().size();
        BitSet needed = sent != null ? sent : all(p.fields().size());
        // the pipeline as the coordinator sends it: each scan reads only the columns used above it
        ScanPipeline resolved = ScanPipeline.of(p.scan().table().storage(), width, p.steps(), needed);
        PipelineRows rows = estimates.pipeline(p);
        add(indent, head != null ? head : gather(p.steps(), rows.output(), needed), rowsOut, annotation.of(p));
        printSteps(resolved.steps(), rows, indent + "  ", p.broadcasts(), p.shuffles(), null,
                p.slicedBy() >= 0 ? p.slicedBy() : PartitionColumn.of(p.scan()));
        boolean byRanges = p.steps().stream().anyMatch(step -> step instanceof PipelineStep.HashJoin j
                && j.build() instanceof JoinBuild.Broadcast b && b.byRanges());
        String placed = p.slicedBy() >= 0 ? sliced(p.scan(), p.slicedBy())
                : byRanges ? " (each split read on its node: a join routes by its ranges)" : "";
        out.add(indent + "  " + ON_NODES + scan(p.scan(), resolved.columns()) + rowsText(rows.rowsBefore(0))
                + (placed.isEmpty() ? annotation.of(p.scan()) : annotation.ofScanReadWhereAssigned(p.scan())) + placed);
        printBroadcasts(p.broadcasts(), ScanPipeline.sentColumns(width, p.steps(), needed), indent);
        for (int i = 0; i < p.shuffles().size(); i++) {
            RelNode.Shuffle shuffle = p.shuffles().get(i);
            out.add(indent + "  Shuffle #" + i + " by " + ColumnNames.of(shuffle.producer().fields()).apply(shuffle.keyColumn())
                    + " to the nodes that own it in " + p.scan().table().name());
            printOperator(shuffle.producer(), indent + "    "); // the nodes run it: the coordinator replays none
        }
    }

    /** What the coordinator receives of a pipeline: its rows' columns, or each node's groups. */
    private static String gather(List<PipelineStep> steps, List<Field> output, BitSet needed) {
        if (!steps.isEmpty() && steps.get(steps.size() - 1) instanceof PipelineStep.PartialAggregate a) {
            return "Gather partial aggregates" + (a.keys().isEmpty() ? "" : " keys " + ColumnNames.of(output).list(0, a.keys().size()));
        }
        List<Field> sent = new ArrayList<>(output);
        for (int i = 0; i < sent.size(); i++) {
            if (!needed.get(i)) {
                sent.set(i, null);
            }
        }
        return "Gather " + ColumnNames.of(sent).list();
    }

    private static String scan(RelNode.Scan s, BitSet read) {
        List<Field> columns = new ArrayList<>();
        for (int i = 0; i < s.fields().size(); i++) {
            columns.add(read.get(i) ? s.fields().get(i) : null);
        }
        return "Scan " + tableName(s) + " " + ColumnNames.of(columns).list();
    }

    private static String tableName(RelNode.Scan s) {
        return s.table().database() + "." + s.table().name() + (s.alias().equals(s.table().name()) ? "" : " AS " + s.alias());
    }

    private void printBroadcasts(List<RelNode> broadcasts, Map<JoinBuild, BitSet> sent, String indent) {
        for (int i = 0; i < broadcasts.size(); i++) {
            int slot = i;
            JoinBuild.Broadcast used = sent.keySet().stream()
                    .filter(build -> build instanceof JoinBuild.Broadcast x && x.slot() == slot)
                    .map(JoinBuild.Broadcast.class::cast).findFirst().orElse(new JoinBuild.Broadcast(i));
            RelNode b = broadcasts.get(i);
            String key = used.routed() ? ColumnNames.of(b.fields()).apply(used.routeColumn()) : "";
            out.add(indent + "  Broadcast #" + i + (used.byRanges() ? ", each row to the nodes whose splits hold its " + key
                    + " (the splits read where assigned)" : used.routed() ? ", each row to the node that owns its " + key
                    : " to every node"));
            if (b instanceof RelNode.NodePipeline p) {
                printPipeline(p, indent + "    ", sent.getOrDefault(used, all(p.fields().size())), null);
            } else {
                print(b, indent + "    ");
            }
        }
    }

    /**
     * The steps each node runs, the last one first; a join with the rows of its own partition of
     * another table has that table's steps and scan under it.
     */
    private void printSteps(List<PipelineStep> steps, PipelineRows rows, String indent, List<RelNode> broadcasts,
                            List<RelNode.Shuffle> shuffles, RelNode exchanged, int partitionColumn) {
        for (int i = steps.size() - 1; i >= 0; i--) {
            PipelineStep step = steps.get(i);
            List<Field> in = rows.before(i);
            String rowsOut = rowsText(rows.rowsBefore(i + 1));
            if (!(step instanceof PipelineStep.HashJoin j)) {
                out.add(indent + ON_NODES + StepText.step(step, in, rows.before(i + 1),
                        PartitionColumn.wholeGroups(steps, i, partitionColumn)) + rowsOut);
                continue;
            }
            PipelineRows.Side build = estimates.side(j.build(), broadcasts, shuffles, exchanged);
            RelNode.Scan local = j.build() instanceof JoinBuild.Local l ? estimates.scanOf(l) : null;
            String from = StepText.buildFrom(j.build(), local == null ? "its table" : tableName(local));
            out.add(indent + ON_NODES + StepText.join(j.kind(), j.probeKeys(), j.buildKeys(), j.residual(), in, build.fields(),
                    from) + rowsOut);
            if (j.build() instanceof JoinBuild.Local l) {
                PipelineRows localRows = estimates.local(l, broadcasts, shuffles);
                printSteps(l.pipeline().steps(), localRows, indent + "  ", broadcasts, shuffles, null,
                        l.pipeline().slicedBy() >= 0 ? l.pipeline().slicedBy() : local == null ? -1 : PartitionColumn.of(local));
                int slicedBy = l.pipeline().slicedBy();
                out.add(indent + "  " + ON_NODES + (local == null ? "Scan " + l.pipeline().table()
                        : scan(local, l.pipeline().columns())) + rowsText(localRows.rowsBefore(0))
                        + (local == null ? "" : slicedBy < 0 ? annotation.of(local)
                        : annotation.ofScanReadWhereAssigned(local) + sliced(local, slicedBy)));
            }
        }
    }

    /** What EXPLAIN says of a scan of a table in files that the nodes read in slices of column {@code slicedBy}'s values. */
    private static String sliced(RelNode.Scan scan, int slicedBy) {
        return " (each node reads a slice of the values of " + scan.fields().get(slicedBy).name() + ")";
    }

    private static String rowsText(long rows) {
        return rows < 0 ? "" : String.format(Locale.ROOT, "  (est. %,d row%s)", rows, rows == 1 ? "" : "s");
    }

    /** A join of two sides the nodes shuffle to each other by key, and what each node runs over its share of the result. */
    private void printShuffledJoin(RelNode.ShuffledJoin j, String indent) {
        PipelineRows rows = estimates.pipeline(j);
        List<PipelineStep> steps = PlanEstimates.shuffledJoinSteps(j);
        add(indent, gather(steps, rows.output(), all(j.fields().size())), rows.outputRows(), annotation.of(j));
        printSteps(steps, rows, indent + "  ", List.of(), List.of(), j, -1);
        out.add(indent + "  Shuffle probe rows by " + keyNames(j.left(), j.leftKeys()) + " to the node each key hashes to");
        printOperator(j.left(), indent + "    ");
        printShuffledBuild("Shuffle build rows", new RelNode.ShuffledBuild(j.right(), j.rightKeys(), j.rightArrival()), indent);
        for (int b = 0; b < j.moreBuilds().size(); b++) {
            printShuffledBuild("Shuffle #" + b, j.moreBuilds().get(b), indent);
        }
    }

    /** A side the nodes shuffle to each other by key to build from, what each does with the rows it receives, and its pipeline. */
    private void printShuffledBuild(String title, RelNode.ShuffledBuild build, String indent) {
        out.add(indent + "  " + title + " by " + keyNames(build.producer(), build.keys()) + " to the node each key hashes to");
        PipelineRows arrived = estimates.arrivedRows(build.producer(), build.arrival());
        for (int i = build.arrival().steps().size() - 1; i >= 0; i--) {
            out.add(indent + "    " + ON_NODES + StepText.step(build.arrival().steps().get(i), arrived.before(i),
                    arrived.before(i + 1)) + rowsText(arrived.rowsBefore(i + 1)));
        }
        printOperator(build.producer(), indent + "    ");
    }

    /**
     * A window or an aggregate the nodes compute over rows shuffled to them by its keys: what each
     * node runs over its share, the window or aggregate first, then the pipeline that sends the rows.
     */
    private void printShuffledSteps(RelNode.ShuffledSteps w, String indent) {
        PipelineRows rows = estimates.pipeline(w);
        add(indent, gather(w.steps(), rows.output(), all(w.fields().size())), rows.outputRows(), annotation.of(w));
        int first = 0; // merged groups may come first (and be all there is)
        while (first < w.steps().size() && !(w.steps().get(first) instanceof PipelineStep.Window
                || w.steps().get(first) instanceof PipelineStep.Aggregate)) {
            first++;
        }
        for (int i = w.steps().size() - 1; i >= 0; i--) {
            PipelineStep step = w.steps().get(i);
            String text = step instanceof PipelineStep.Window win && i == first
                    ? StepText.window(win.partitionKeys(), win.orderKeys(), win.calls(), rows.before(i), rows.before(i + 1))
                    + " on the nodes, each partition where its keys hash"
                    : StepText.step(step, rows.before(i), rows.before(i + 1));
            out.add(indent + "  " + ON_NODES + text + rowsText(rows.rowsBefore(i + 1)));
        }
        ColumnNames names = ColumnNames.of(estimates.pipeline(w.input()).output());
        printPipeline(w.input(), indent + "  ", null, "Shuffle rows by " + w.keys().stream().map(names::apply).toList()
                + " to the nodes that compute them", estimates.rows(w.input()));
    }

    private static List<String> keyNames(RelNode n, int[] columns) {
        ColumnNames names = ColumnNames.of(n.fields());
        return Arrays.stream(columns).mapToObj(names::apply).toList();
    }

    private void printIndexJoinSteps(RelNode.IndexJoinSteps s, String indent) {
        PipelineRows rows = estimates.pipeline(s);
        add(indent, gather(s.steps(), rows.output(), all(s.fields().size())), rows.outputRows(), annotation.of(s));
        printSteps(s.steps(), rows, indent + "  ", s.broadcasts(), List.of(), null, -1);
        printBroadcasts(s.broadcasts(), Map.of(), indent);
        printOperator(s.join(), indent + "  "); // the nodes run it
    }

    /** The merge of the nodes' partial aggregates, its calls over the columns the partial step read. */
    private void printFinalAggregate(RelNode.FinalAggregate a, String indent) {
        String text = StepText.aggregate("FinalAggregate", partialStep(a).keys(), a.aggregates(), partialInput(a), a.fields())
                + (a.onNodes() ? " on the nodes, each group where its key hashes" : "");
        add(indent, text, estimates.rows(a), annotation.of(a));
        if (a.onNodes()) { // the partial rows are shuffled, not gathered: the coordinator receives the merged groups
            printPipeline((RelNode.NodePipeline) a.input(), indent + "  ", null, "Shuffle partial aggregates by "
                    + ColumnNames.of(a.fields()).list(0, a.keyCount()) + " to the nodes that merge them", estimates.rows(a));
        } else {
            print(a.input(), indent + "  ");
        }
    }

    /** The nodes' partial aggregate a final one merges: the last step of its input. */
    private static PipelineStep.PartialAggregate partialStep(RelNode.FinalAggregate a) {
        List<PipelineStep> steps = nodeSteps(a.partials());
        return (PipelineStep.PartialAggregate) steps.get(steps.size() - 1);
    }

    /** The columns the nodes' partial aggregate reads: those the final one's calls name. */
    private List<Field> partialInput(RelNode.FinalAggregate a) {
        return estimates.pipeline(a.partials()).before(nodeSteps(a.partials()).size() - 1);
    }

    /** The steps the nodes run, as their estimates count them: a join of shuffled sides with what precedes and follows it. */
    private static List<PipelineStep> nodeSteps(RelNode n) {
        return n instanceof RelNode.NodePipeline p ? p.steps()
                : n instanceof RelNode.ShuffledJoin j ? PlanEstimates.shuffledJoinSteps(j)
                : n instanceof RelNode.ShuffledSteps w ? w.steps() : ((RelNode.IndexJoinSteps) n).steps();
    }

    private static BitSet all(int width) {
        BitSet all = new BitSet();
        all.set(0, width);
        return all;
    }

    static List<RelNode> inputs(RelNode n) {
        if (n instanceof RelNode.Filter f) {
            return List.of(f.input());
        } else if (n instanceof RelNode.Project p) {
            return List.of(p.input());
        } else if (n instanceof RelNode.Join j) {
            return List.of(j.left(), j.right());
        } else if (n instanceof RelNode.Aggregate a) {
            return List.of(a.input());
        } else if (n instanceof RelNode.FinalAggregate a) {
            return List.of(a.input());
        } else if (n instanceof RelNode.Sort s) {
            return List.of(s.input());
        } else if (n instanceof RelNode.Limit l) {
            return List.of(l.input());
        } else if (n instanceof RelNode.SingleRow s) {
            return List.of(s.input());
        } else if (n instanceof RelNode.Union u) {
            return u.inputs();
        } else if (n instanceof RelNode.IndexJoinCandidate c) {
            return List.of(c.hashJoins());
        } else if (n instanceof RelNode.Window w) {
            return List.of(w.input());
        } else if (n instanceof RelNode.Expand e) {
            return List.of(e.input());
        } else if (n instanceof RelNode.Replicate r) {
            return List.of(r.input());
        } else if (n instanceof RelNode.Generate g) {
            return List.of(g.input());
        }
        return List.of();
    }

    /**
     * The columns of {@code n}'s rows as EXPLAIN names them: as the plan does, but a GROUP BY's
     * aggregate the analyzer named {@code _a1} by its SQL, and a pipeline's columns as its steps
     * made them.
     */
    private List<Field> displayed(RelNode n) {
        if (n instanceof RelNode.Filter || n instanceof RelNode.Sort || n instanceof RelNode.Limit
                || n instanceof RelNode.SingleRow || n instanceof RelNode.Replicate) {
            return displayed(inputs(n).get(0));
        }
        if (n instanceof RelNode.NodePipeline || n instanceof RelNode.ShuffledJoin || n instanceof RelNode.IndexJoinSteps
                || n instanceof RelNode.ShuffledSteps) {
            return estimates.pipeline(n).output();
        }
        if (n instanceof RelNode.Aggregate a) {
            return ownNames(a.fields(), a.keys().size(), a.aggregates(), displayed(a.input()));
        }
        if (n instanceof RelNode.FinalAggregate a) {
            return ownNames(a.fields(), a.keyCount(), a.aggregates(), partialInput(a));
        }
        if (n instanceof RelNode.Window w) { // its calls named by their SQL
            List<Field> in = displayed(w.input());
            List<Field> out = new ArrayList<>(in);
            for (int i = 0; i < w.calls().size(); i++) {
                Field f = w.fields().get(in.size() + i);
                out.add(ColumnNames.generated(f.name()) ? new Field(null, w.calls().get(i).text(ColumnNames.of(in)), f.type()) : f);
            }
            return out;
        }
        if (n instanceof RelNode.Join j) {
            List<Field> out = new ArrayList<>(displayed(j.left()));
            if (!j.kind().leftOnly()) {
                out.addAll(displayed(j.right()));
            }
            return out;
        }
        if (n instanceof RelNode.Project p) { // a made-up name passed on names what it was made from
            List<Field> in = displayed(p.input());
            List<Field> out = new ArrayList<>(p.fields());
            for (int i = 0; i < out.size(); i++) {
                if (ColumnNames.generated(out.get(i).name()) && p.exprs().get(i) instanceof org.oooengine.core.sql.expr.Expr.Column c) {
                    out.set(i, in.get(c.index()));
                }
            }
            return out;
        }
        return n.fields();
    }

    private static List<Field> ownNames(List<Field> fields, int keys, List<org.oooengine.core.sql.expr.AggregateCall> calls,
                                        List<Field> in) {
        List<Field> out = new ArrayList<>(fields);
        ColumnNames names = ColumnNames.of(in);
        for (int i = 0; i < calls.size(); i++) {
            Field f = out.get(keys + i);
            if (ColumnNames.generated(f.name())) {
                out.set(keys + i, new Field(null, names.sql(calls.get(i)), f.type()));
            }
        }
        return out;
    }

    /** An operator of the coordinator (or a leaf), on one line. */
    private String describe(RelNode n) {
        if (n instanceof RelNode.Scan s) {
            return "Scan " + tableName(s) + " " + ColumnNames.of(s.fields()).list()
                    + (s.filter() == null ? "" : " WHERE " + ColumnNames.of(s.fields()).sql(s.filter()));
        } else if (n instanceof RelNode.Filter f) {
            return StepText.filter(f.condition(), displayed(f.input()));
        } else if (n instanceof RelNode.Project p) {
            return StepText.project(p.exprs(), displayed(p.input()), displayed(p));
        } else if (n instanceof RelNode.Join j) {
            return StepText.join(j.kind(), Arrays.stream(j.leftKeys()).boxed().toList(),
                    Arrays.stream(j.rightKeys()).boxed().toList(), j.residual(), displayed(j.left()), displayed(j.right()), null);
        } else if (n instanceof RelNode.Aggregate a) {
            return StepText.aggregate("Aggregate", a.keys(), a.aggregates(), displayed(a.input()), a.fields());
        } else if (n instanceof RelNode.Sort s) {
            return "Sort " + StepText.sortKeys(s.keys(), displayed(s));
        } else if (n instanceof RelNode.Limit l) {
            return "Limit " + (l.offset() > 0 ? l.offset() + ", " : "") + l.count();
        } else if (n instanceof RelNode.SingleRow) {
            return "SingleRow";
        } else if (n instanceof RelNode.Union u) {
            return "UnionAll " + ColumnNames.of(u.fields()).list();
        } else if (n instanceof RelNode.IndexJoin j) {
            return indexJoin(j);
        } else if (n instanceof RelNode.IndexJoinCandidate c) {
            return "IndexJoinCandidate " + c.spec().outerTable() + " (hash joins below)";
        } else if (n instanceof RelNode.Window w) {
            return StepText.window(w.partitionKeys(), w.orderKeys(), w.calls(), displayed(w.input()), w.fields());
        } else if (n instanceof RelNode.Expand e) {
            return StepText.expand(e.projections(), false, displayed(e.input()), e.fields());
        } else if (n instanceof RelNode.Replicate r) {
            return "Replicate each row " + ColumnNames.of(displayed(r.input())).apply(r.countColumn()) + " times";
        } else if (n instanceof RelNode.Generate g) {
            List<Field> generated = g.fields().subList(g.input().fields().size(), g.fields().size());
            return "LateralView " + g.generator().text(ColumnNames.of(displayed(g.input()))) + " AS "
                    + ColumnNames.of(generated).list() + " (on the coordinator)";
        }
        RelNode.Values v = (RelNode.Values) n;
        return "Values " + v.rows().size() + " rows " + ColumnNames.of(v.fields()).list();
    }

    private static String indexJoin(RelNode.IndexJoin j) {
        var spec = j.spec();
        var range = spec.outerRange();
        StringBuilder b = new StringBuilder(joinMethods(j) + " " + j.choice() + ": " + spec.outerTable()
                + (spec.outerAlias().equals(spec.outerTable()) ? "" : " AS " + spec.outerAlias())
                + " WHERE " + range.column() + " BETWEEN " + stored(j, spec.outerAlias(), range.column(), range.low())
                + " AND " + stored(j, spec.outerAlias(), range.column(), range.high()));
        for (var p : spec.probes()) {
            b.append(", probe ").append(p.table()).append(p.alias().equals(p.table()) ? "" : " AS " + p.alias())
                    .append(" ON ").append(p.alias()).append('.').append(p.column()).append(" = ").append(p.from());
        }
        return b.append(' ').append(ColumnNames.of(j.fields()).list()).toString();
    }

    /** A bound of the index join's range, kept as the nodes store it (scaled decimals, epoch days), as a SQL literal. */
    private static String stored(RelNode.IndexJoin j, String alias, String column, Object value) {
        SqlType type = null;
        for (Field f : j.fields()) {
            if (f.name().equalsIgnoreCase(column) && (type == null || alias.equals(f.qualifier()))) {
                type = f.type();
            }
        }
        try {
            return type == null ? String.valueOf(value) : ExprText.literal(type.fromStored(value), type);
        } catch (RuntimeException notStored) {
            return String.valueOf(value);
        }
    }

    private static String joinMethods(RelNode.IndexJoin j) {
        if (j.allIndexJoins()) {
            return "IndexJoin";
        }
        return j.indexJoins() == 0 ? "SortMergeJoin" : "IndexJoin+SortMergeJoin";
    }
}
