package org.oooengine.hive.sql.exec;

import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.Exprs;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.rel.RelNode;

/**
 * Which columns of each scanned table a plan reads: the others are never converted or kept. Every
 * plan a node runs or the coordinator computes first is walked too — a broadcast join's build
 * side is a plan of its own, and may scan a table on the coordinator (a derived table joined
 * there): a scan not reached would read no columns, and give nulls for all.
 */
final class ColumnUsage {
    private final Map<RelNode.Scan, BitSet> byScan = new IdentityHashMap<>();
    private final Set<TableInfo> slicedAlike = new LinkedHashSet<>();

    static Map<RelNode.Scan, BitSet> of(RelNode root) {
        return walked(root).byScan;
    }

    /** The tables in files the plan's node pipelines build from in slices cut as their own tables' ({@link RelNode.NodePipeline#slicedAlike}). */
    static List<TableInfo> slicedAlike(RelNode root) {
        return List.copyOf(walked(root).slicedAlike);
    }

    private static ColumnUsage walked(RelNode root) {
        ColumnUsage u = new ColumnUsage();
        BitSet all = new BitSet();
        all.set(0, root.fields().size());
        u.need(root, all);
        return u;
    }

    private void need(RelNode node, BitSet required) {
        if (node instanceof RelNode.Scan s) {
            BitSet b = byScan.computeIfAbsent(s, x -> new BitSet());
            b.or(required);
            if (s.filter() != null) {
                b.or(Exprs.columns(s.filter()));
            }
        } else if (node instanceof RelNode.Filter f) {
            need(f.input(), union(required, Exprs.columns(f.condition())));
        } else if (node instanceof RelNode.Project p) {
            BitSet in = new BitSet();
            required.stream().forEach(i -> in.or(Exprs.columns(p.exprs().get(i))));
            need(p.input(), in);
        } else if (node instanceof RelNode.Join j) {
            int width = j.left().fields().size();
            BitSet all = (BitSet) required.clone();
            for (int k : j.leftKeys()) {
                all.set(k);
            }
            for (int k : j.rightKeys()) {
                all.set(width + k);
            }
            if (j.residual() != null) {
                all.or(Exprs.columns(j.residual()));
            }
            need(j.left(), all.get(0, width));
            need(j.right(), all.get(width, Math.max(width, all.length())));
        } else if (node instanceof RelNode.Aggregate a) {
            BitSet in = new BitSet();
            a.keys().forEach(k -> in.or(Exprs.columns(k)));
            for (AggregateCall c : a.aggregates()) {
                if (c.arg() != null) {
                    in.or(Exprs.columns(c.arg()));
                }
            }
            need(a.input(), in);
        } else if (node instanceof RelNode.Sort s) {
            BitSet in = (BitSet) required.clone();
            s.keys().forEach(k -> in.set(k.column()));
            need(s.input(), in);
        } else if (node instanceof RelNode.Limit l) {
            need(l.input(), required);
        } else if (node instanceof RelNode.SingleRow s) {
            need(s.input(), required);
        } else if (node instanceof RelNode.Union u) {
            u.inputs().forEach(input -> need(input, required));
        } else if (node instanceof RelNode.Window w) {
            need(w.input(), w.inputsRead(required));
        } else if (node instanceof RelNode.Expand e) {
            BitSet in = new BitSet();
            for (java.util.List<Expr> copy : e.projections()) {
                required.stream().forEach(i -> in.or(Exprs.columns(copy.get(i))));
            }
            need(e.input(), in);
        } else if (node instanceof RelNode.Generate g) {
            BitSet in = required.get(0, g.input().fields().size());
            in.or(Exprs.columns(g.generator().arg()));
            need(g.input(), in);
        } else if (node instanceof RelNode.Replicate r) {
            BitSet in = (BitSet) required.clone();
            in.set(r.countColumn());
            need(r.input(), in);
        } else if (node instanceof RelNode.NodePipeline p) {
            slicedAlike.addAll(p.slicedAlike());
            Map<JoinBuild, BitSet> sent = ScanPipeline.sentColumns(p.scan().fields().size(), p.steps(), required);
            needSent(sent, p.broadcasts(), p.shuffles());
        } else if (node instanceof RelNode.IndexJoinSteps s) {
            Map<JoinBuild, BitSet> sent = ScanPipeline.sentColumns(s.join().fields().size(), s.steps(), required);
            needSent(sent, s.broadcasts(), List.of());
        } else if (node instanceof RelNode.ShuffledJoin j) {
            needAll(j.left());
            needAll(j.right());
            j.moreBuilds().forEach(b -> needAll(b.producer()));
        } else if (node instanceof RelNode.ShuffledSteps w) {
            needAll(w.input());
        } else if (node instanceof RelNode.FinalAggregate a) {
            needAll(a.input());
        } else if (node instanceof RelNode.IndexJoinCandidate c) {
            needAll(c.hashJoins());
        } else if (!(node instanceof RelNode.Values || node instanceof RelNode.IndexJoin)) {
            // a plan node this walk does not know might hide a scan that would read nothing
            throw new IllegalStateException("no column usage for " + node.getClass().getSimpleName());
        }
    }

    /** The plans whose rows the nodes' join steps build from, each with the columns its join and what follows read. */
    private void needSent(Map<JoinBuild, BitSet> sent, List<RelNode> broadcasts, List<RelNode.Shuffle> shuffles) {
        sent.forEach((build, columns) -> {
            if (build instanceof JoinBuild.Broadcast b) {
                need(broadcasts.get(b.slot()), columns);
            } else if (build instanceof JoinBuild.Shuffled s) {
                RelNode.Shuffle shuffle = shuffles.get(s.slot());
                BitSet withKey = (BitSet) columns.clone();
                withKey.set(shuffle.keyColumn());
                need(shuffle.producer(), withKey);
            }
        });
    }

    private void needAll(RelNode node) {
        BitSet all = new BitSet();
        all.set(0, node.fields().size());
        need(node, all);
    }

    private static BitSet union(BitSet a, BitSet b) {
        BitSet out = (BitSet) a.clone();
        out.or(b);
        return out;
    }

}
