package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The rows EXPLAIN estimates each operator of a placed plan to produce, and the columns and rows
 * that flow through the steps of the nodes' pipelines ({@link PipelineRows}). Table row counts
 * come from the nodes' manifests ({@link TableLayouts}); the rest follows the rules planning uses
 * ({@link CardinalityModel}).
 * -1: unknown (a table in files, or MapReduce mode).
 */
final class PlanEstimates {
    private final TableLayouts layouts;
    private final List<RelNode.Scan> tables;
    private final CardinalityModel model;
    private final Map<RelNode, PipelineRows> pipelines = new IdentityHashMap<>();

    /** @param tables the scans of the plan before placement: what the nodes' own-partition builds read */
    PlanEstimates(TableLayouts layouts, List<RelNode.Scan> tables) {
        this.layouts = layouts;
        this.tables = tables;
        this.model = CardinalityModel.of(layouts, tables, n -> n instanceof RelNode.NodePipeline
                || n instanceof RelNode.ShuffledJoin || n instanceof RelNode.IndexJoinSteps
                || n instanceof RelNode.ShuffledSteps ? pipeline(n) : null);
    }

    /** Rows {@code n} is estimated to produce; -1 when unknown (an index join: its choice states the optimizer's estimate). */
    long rows(RelNode n) {
        return model.rows(n);
    }

    /** The steps of a node's pipeline, of a join of two shuffled sides or of an index join, with their rows. */
    PipelineRows pipeline(RelNode n) {
        PipelineRows known = pipelines.get(n);
        if (known != null) {
            return known;
        }
        PipelineRows made;
        if (n instanceof RelNode.NodePipeline p) {
            TableInfo table = p.scan().table();
            made = new PipelineRows(p.scan().fields(), layouts.rows(table).orElse(-1), model.base(p.scan().fields()),
                    p.steps(), p.fields(),
                    build -> side(build, p.broadcasts(), p.shuffles(), null), column -> layouts.range(table, column),
                    layouts.nodes(table), model);
        } else if (n instanceof RelNode.ShuffledJoin j) {
            // merged on arrival: the rows sent named as their pipeline made them (a partial aggregate's states by its calls)
            List<Field> sent = j.leftArrival().steps().isEmpty() ? j.left().fields() : pipeline(j.left()).output();
            made = new PipelineRows(sent, rows(j.left()), model.columns(j.left()), shuffledJoinSteps(j), j.fields(),
                    build -> side(build, List.of(), List.of(), j), RowEstimates.Ranges.NONE,
                    layouts.nodes(j.left().scan().table()), model);
        } else if (n instanceof RelNode.ShuffledSteps w) {
            // the rows sent named as their pipeline made them: a partial aggregate's states by its calls
            made = new PipelineRows(pipeline(w.input()).output(), rows(w.input()), model.columns(w.input()), w.steps(), w.fields(),
                    build -> PipelineRows.Side.UNKNOWN, RowEstimates.Ranges.NONE, layouts.nodes(w.input().scan().table()), model);
        } else {
            RelNode.IndexJoinSteps s = (RelNode.IndexJoinSteps) n;
            made = new PipelineRows(s.join().fields(), rows(s.join()), model.columns(s.join()), s.steps(), s.fields(),
                    build -> side(build, s.broadcasts(), List.of(), null), RowEstimates.Ranges.NONE, 1, model);
        }
        pipelines.put(n, made);
        return made;
    }

    /**
     * A join of two shuffled sides as the steps each node runs: what it does with the probe rows it
     * received as they arrive, the join, then what follows.
     */
    static List<PipelineStep> shuffledJoinSteps(RelNode.ShuffledJoin j) {
        List<PipelineStep> steps = new ArrayList<>(j.leftArrival().steps());
        steps.add(new PipelineStep.HashJoin(new JoinBuild.Exchanged("build", 1, true), j.kind(),
                java.util.Arrays.stream(j.leftKeys()).boxed().toList(), java.util.Arrays.stream(j.rightKeys()).boxed().toList(),
                j.residual(), j.rightArrival().fields(j.right().fields()).size()));
        steps.addAll(j.after());
        return steps;
    }

    /** The build rows of a join of shuffled sides after what each node does with them as they arrive. */
    private PipelineRows.Side arrived(RelNode.NodePipeline sent, RelNode.Arrival arrival) {
        PipelineRows rows = arrivedRows(sent, arrival);
        return new PipelineRows.Side(rows.output(), rows.outputRows(), -1, rows.outputDistinct(), rows.outputValues());
    }

    /** What each node does with the rows of {@code sent} as they arrive, step by step (nothing: their own). */
    PipelineRows arrivedRows(RelNode.NodePipeline sent, RelNode.Arrival arrival) {
        if (arrival.steps().isEmpty()) {
            return pipeline(sent);
        }
        // the rows sent named as their pipeline made them: a partial aggregate's states by its calls
        return new PipelineRows(pipeline(sent).output(), rows(sent), model.columns(sent), arrival.steps(),
                arrival.fields(), build -> PipelineRows.Side.UNKNOWN, RowEstimates.Ranges.NONE, 1, model);
    }

    /** What a join step of a pipeline builds from. */
    PipelineRows.Side side(JoinBuild build, List<RelNode> broadcasts, List<RelNode.Shuffle> shuffles, RelNode exchanged) {
        if (build instanceof JoinBuild.Broadcast b && b.slot() < broadcasts.size()) {
            return side(broadcasts.get(b.slot()));
        }
        if (build instanceof JoinBuild.Shuffled s && s.slot() < shuffles.size()) {
            return side(shuffles.get(s.slot()).producer());
        }
        if (exchanged instanceof RelNode.ShuffledJoin j) { // a join on the nodes of sides shuffled to them, maybe merged as they arrive
            if (build instanceof JoinBuild.Shuffled s && s.slot() < j.moreBuilds().size()) {
                return arrived(j.moreBuilds().get(s.slot()).producer(), j.moreBuilds().get(s.slot()).arrival());
            }
            if (build instanceof JoinBuild.Exchanged) {
                return j.rightArrival().steps().isEmpty() ? side(j.right()) : arrived(j.right(), j.rightArrival());
            }
        }
        if (build instanceof JoinBuild.Local local) {
            PipelineRows rows = local(local, broadcasts, shuffles);
            RelNode.Scan scan = scanOf(local);
            return new PipelineRows.Side(rows.output(), rows.outputRows(),
                    scan == null ? -1 : layouts.rows(scan.table()).orElse(-1), rows.outputDistinct(), rows.outputValues());
        }
        return PipelineRows.Side.UNKNOWN;
    }

    private PipelineRows.Side side(RelNode n) {
        return model.side(n);
    }

    /** The rows of a node's own partition that a join builds from, through the steps of their pipeline. */
    PipelineRows local(JoinBuild.Local local, List<RelNode> broadcasts, List<RelNode.Shuffle> shuffles) {
        RelNode.Scan scan = scanOf(local);
        List<Field> fields = scan != null ? scan.fields() : unnamedTable(local);
        TableInfo table = scan == null ? null : scan.table();
        return new PipelineRows(fields, table == null ? -1 : layouts.rows(table).orElse(-1), model.base(fields),
                local.pipeline().steps(), null,
                build -> side(build, broadcasts, shuffles, null),
                table == null ? RowEstimates.Ranges.NONE : column -> layouts.range(table, column),
                table == null ? 1 : layouts.nodes(table), model);
    }

    /**
     * The scan a node's own-partition build reads: of the plan's scans of its table, the one whose
     * filter is the pipeline's first step (a table scanned twice, as TPC-H Q21's lineitem, has two).
     */
    RelNode.Scan scanOf(JoinBuild.Local local) {
        String storage = local.pipeline().table();
        List<PipelineStep> steps = local.pipeline().steps();
        Expr first = !steps.isEmpty() && steps.get(0) instanceof PipelineStep.Filter f ? f.condition() : null;
        RelNode.Scan any = null;
        for (RelNode.Scan s : tables) {
            if (s.table().storage().equals(storage) && s.fields().size() == local.pipeline().width()) {
                if (java.util.Objects.equals(s.filter(), first)) {
                    return s;
                }
                any = any == null ? s : any;
            }
        }
        return any;
    }

    /** Columns of a table the plan names nowhere else: by the table and their place, never seen in practice. */
    private static List<Field> unnamedTable(JoinBuild.Local local) {
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < local.pipeline().width(); i++) {
            out.add(new Field(local.pipeline().table(), local.pipeline().table() + " column " + (i + 1),
                    org.oooengine.core.sql.SqlType.VOID));
        }
        return out;
    }
}
