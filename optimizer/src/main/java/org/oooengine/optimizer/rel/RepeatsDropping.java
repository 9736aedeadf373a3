package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;

/**
 * A DISTINCT (a GROUP BY without aggregates) whose nodes' pipeline ends in its partial aggregate
 * drops each value's repeats only there, after every join has met every copy. Rows repeat long
 * before that where a key of the DISTINCT is a fact's, not its own key: TPC-DS Q38 and Q87 want
 * the distinct customers and days of a year's sales, and a ticket's ten lines are ten rows of one
 * customer and day, each joined to the customer's names and grouped by them. Each node therefore
 * drops repeats early ({@link PipelineStep.DropRepeats}): before the last join, of the columns read
 * after it, and at the end of each side shuffled to be built from, so that a row's copies are
 * joined, sent and grouped once. Only where every step from there to the aggregate keeps a
 * repeated row's copies alike (filters, projections, joins that keep or drop probe rows); the
 * step stops looking where few repeat.
 */
final class RepeatsDropping {
    private RepeatsDropping() {
    }

    /** {@code p} with repeats dropped early, when it ends in a DISTINCT's partial aggregate; else {@code p}. */
    static RelNode.NodePipeline apply(RelNode.NodePipeline p, int keepPercent) {
        List<PipelineStep> steps = p.steps();
        int end = steps.size() - 1;
        if (end < 1 || !(steps.get(end) instanceof PipelineStep.PartialAggregate a) || !a.aggregates().isEmpty()
                || a.keys().isEmpty()) {
            return p;
        }
        int from = end; // steps [from, end) keep a repeated row's copies alike
        while (from > 0 && keepsRepeatsAlike(steps.get(from - 1))) {
            from--;
        }
        List<RelNode.Shuffle> shuffles = new ArrayList<>(p.shuffles());
        for (int i = from; i < end; i++) {
            if (steps.get(i) instanceof PipelineStep.HashJoin j && j.build() instanceof JoinBuild.Shuffled s) {
                shuffles.set(s.slot(), droppedAtEnd(shuffles.get(s.slot()), keepPercent));
            }
        }
        List<PipelineStep> dropped = new ArrayList<>(steps);
        int last = lastJoin(steps, from, end);
        SqlType[] types = last < 0 ? null : typesBefore(p, last);
        if (types != null && mayRepeat(p, last, types.length)) {
            BitSet read = ScanPipeline.inputsRead(types.length, steps.subList(last, steps.size()), new BitSet());
            List<Expr> keys = new ArrayList<>();
            read.stream().forEach(c -> keys.add(new Expr.Column(c, types[c])));
            dropped.add(last, new PipelineStep.DropRepeats(keys, keepPercent));
        }
        return new RelNode.NodePipeline(p.scan(), dropped, p.broadcasts(), shuffles, p.fields(), p.slicedBy(), p.slicedAlike());
    }

    /** Whether the copies of a repeated row that reach {@code step} leave it alike (as copies, or all dropped). */
    private static boolean keepsRepeatsAlike(PipelineStep step) {
        return step instanceof PipelineStep.Filter || step instanceof PipelineStep.Project
                || step instanceof PipelineStep.DropRepeats
                || step instanceof PipelineStep.HashJoin j && keepsProbeRows(j.kind());
    }

    /** Join kinds whose output for a probe row depends on that row alone, not on which others came. */
    private static boolean keepsProbeRows(JoinKind kind) {
        return kind == JoinKind.INNER || kind == JoinKind.LEFT || kind == JoinKind.CROSS || kind.leftOnly();
    }

    /** The last join in steps {@code [from, end)}, or -1. */
    private static int lastJoin(List<PipelineStep> steps, int from, int end) {
        for (int i = end - 1; i >= from; i--) {
            if (steps.get(i) instanceof PipelineStep.HashJoin) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the rows reaching step {@code at} may repeat in what is read of them: not when they
     * are the scanned table's own rows, only filtered or semi and anti joined (each passes at most
     * once, as it was), and its primary key is read (each row is then one of a kind: TPC-H Q16's
     * partsupp rows not of a complaining supplier).
     */
    private static boolean mayRepeat(RelNode.NodePipeline p, int at, int width) {
        if (p.steps().subList(0, at).stream().anyMatch(s -> !(s instanceof PipelineStep.Filter
                || s instanceof PipelineStep.HashJoin j && j.kind().leftOnly()))) {
            return true;
        }
        List<String> key = p.scan().table().uniqueKey();
        BitSet read = ScanPipeline.inputsRead(width, p.steps().subList(at, p.steps().size()), new BitSet());
        return key.isEmpty() || !key.stream().allMatch(column -> read.get(p.scan().table().indexOf(column)));
    }

    /** The types of the columns of the rows reaching step {@code at}; null where a step before makes columns not followed here. */
    private static SqlType[] typesBefore(RelNode.NodePipeline p, int at) {
        List<SqlType> types = new ArrayList<>(p.scan().fields().stream().map(Field::type).toList());
        for (PipelineStep step : p.steps().subList(0, at)) {
            if (step instanceof PipelineStep.Project project) {
                types = new ArrayList<>(project.exprs().stream().map(Expr::type).toList());
            } else if (step instanceof PipelineStep.HashJoin j && !j.kind().leftOnly()) {
                List<Field> built = j.build() instanceof JoinBuild.Broadcast b ? p.broadcasts().get(b.slot()).fields()
                        : j.build() instanceof JoinBuild.Shuffled s ? p.shuffles().get(s.slot()).producer().fields() : null;
                if (built == null || j.kind().rightOnly()) {
                    return null;
                }
                for (Field f : built) {
                    types.add(f.type());
                }
            } else if (!(step instanceof PipelineStep.Filter || step instanceof PipelineStep.DropRepeats
                    || step instanceof PipelineStep.HashJoin)) {
                return null;
            }
        }
        return types.toArray(SqlType[]::new);
    }

    /** The shuffle with its producer's repeats dropped before they are sent, of every column it sends but nulls. */
    private static RelNode.Shuffle droppedAtEnd(RelNode.Shuffle shuffle, int keepPercent) {
        RelNode.NodePipeline producer = shuffle.producer();
        List<PipelineStep> made = producer.steps();
        List<Expr> sent = !made.isEmpty() && made.get(made.size() - 1) instanceof PipelineStep.Project last ? last.exprs() : null;
        List<Expr> keys = new ArrayList<>();
        for (int c = 0; c < producer.fields().size(); c++) {
            if (sent == null || !(sent.get(c) instanceof Expr.Literal l && l.value() == null)) { // not a column left out
                keys.add(new Expr.Column(c, producer.fields().get(c).type()));
            }
        }
        if (keys.isEmpty()) {
            return shuffle;
        }
        List<PipelineStep> steps = new ArrayList<>(producer.steps());
        steps.add(new PipelineStep.DropRepeats(keys, keepPercent));
        return new RelNode.Shuffle(new RelNode.NodePipeline(producer.scan(), steps, producer.broadcasts(),
                producer.shuffles(), producer.fields(), producer.slicedBy(), producer.slicedAlike()), shuffle.keyColumn());
    }
}
