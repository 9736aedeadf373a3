package org.oooengine.optimizer.rel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.SortKey;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.expr.Expr;

/** A plan as an indented tree, one operator per line, for EXPLAIN. */
public final class PlanPrinter {
    private PlanPrinter() {
    }

    public static List<String> lines(RelNode root) {
        return lines(root, n -> "");
    }

    /** The tree with {@code annotation} appended to each operator's line (EXPLAIN ANALYZE's measurements). */
    public static List<String> lines(RelNode root, java.util.function.Function<RelNode, String> annotation) {
        List<String> out = new ArrayList<>();
        print(root, "", out, annotation);
        return out;
    }

    private static void print(RelNode n, String indent, List<String> out, java.util.function.Function<RelNode, String> annotation) {
        print(n, describe(n), indent, out, annotation);
    }

    /** {@code n} on a line that reads {@code head}, its inputs under it. */
    private static void print(RelNode n, String head, String indent, List<String> out,
                              java.util.function.Function<RelNode, String> annotation) {
        out.add(indent + head + annotation.apply(n));
        if (n instanceof RelNode.FinalAggregate a && a.onNodes()) { // the partial rows are shuffled, not gathered
            print(a.input(), "Shuffle partial aggregates by " + a.fields().subList(0, a.keyCount()).stream().map(Field::name)
                    .toList() + " to the nodes that merge them", indent + "  ", out, annotation);
            return;
        }
        if (n instanceof RelNode.ShuffledJoin j) {
            List<PipelineStep> steps = new ArrayList<>();
            steps.add(new PipelineStep.HashJoin(new JoinBuild.Exchanged("build", 1, true), j.kind(),
                    Arrays.stream(j.leftKeys()).boxed().toList(), Arrays.stream(j.rightKeys()).boxed().toList(), j.residual(),
                    j.right().fields().size()));
            steps.addAll(j.after());
            printOnNodes(null, steps, indent + "  ", "[each node] ", out);
            out.add(indent + "  Shuffle probe rows by " + names(j.left(), j.leftKeys()) + " to the node each key hashes to");
            print(j.left(), indent + "    ", out, annotation);
            out.add(indent + "  Shuffle build rows by " + names(j.right(), j.rightKeys()) + " to the node each key hashes to");
            print(j.right(), indent + "    ", out, annotation);
            return;
        }
        if (n instanceof RelNode.IndexJoinSteps s) {
            printOnNodes(null, s.steps(), indent + "  ", "[each node] ", out);
            printBroadcasts(s.broadcasts(), indent, out, annotation);
            print(s.join(), indent + "  ", out, annotation);
            return;
        }
        if (n instanceof RelNode.NodePipeline p) {
            printOnNodes(p.scan(), p.steps(), indent + "  ", "[each node] ", out);
            printBroadcasts(p.broadcasts(), indent, out, annotation);
            for (int i = 0; i < p.shuffles().size(); i++) {
                RelNode.Shuffle shuffle = p.shuffles().get(i);
                out.add(indent + "  Shuffle #" + i + " by " + shuffle.producer().fields().get(shuffle.keyColumn()).name()
                        + " to the nodes that own it in " + p.scan().table().name());
                print(shuffle.producer(), indent + "    ", out, annotation);
            }
        }
        for (RelNode c : inputs(n)) {
            print(c, indent + "  ", out, annotation);
        }
    }

    private static void printBroadcasts(List<RelNode> broadcasts, String indent, List<String> out,
                                        java.util.function.Function<RelNode, String> annotation) {
        for (int i = 0; i < broadcasts.size(); i++) {
            out.add(indent + "  Broadcast #" + i + " to every node");
            print(broadcasts.get(i), indent + "    ", out, annotation);
        }
    }

    private static List<String> names(RelNode n, int[] columns) {
        return Arrays.stream(columns).mapToObj(c -> n.fields().get(c).name()).toList();
    }

    private static String sortKeys(List<SortKey> keys) {
        return keys.stream().map(k -> "#" + k.column() + (k.ascending() ? " asc" : " desc")).collect(Collectors.joining(", "));
    }

    /** The steps each node runs, the last one first, down to the scan; a join's local build under it. */
    private static void printOnNodes(RelNode.Scan scan, List<PipelineStep> steps, String indent, String on,
                                     List<String> out) {
        for (int i = steps.size() - 1; i >= 0; i--) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.Filter f) {
                out.add(indent + on + "Filter " + Expr.describe(f.condition()));
            } else if (step instanceof PipelineStep.Project pr) {
                out.add(indent + on + "Project " + pr.exprs().stream().map(Expr::describe).collect(Collectors.joining(", ")));
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                out.add(indent + on + "PartialAggregate keys " + a.keys().stream().map(Expr::describe).toList() + " "
                        + a.aggregates());
            } else if (step instanceof PipelineStep.Aggregate a) {
                out.add(indent + on + "Aggregate keys " + a.keys().stream().map(Expr::describe).toList() + " "
                        + a.aggregates() + " (each group on one node)");
            } else if (step instanceof PipelineStep.TopN t) {
                out.add(indent + on + "TopN " + t.count() + " by " + sortKeys(t.keys()));
            } else if (step instanceof PipelineStep.Sort sort) {
                out.add(indent + on + "Sort by " + sortKeys(sort.keys()));
            } else if (step instanceof PipelineStep.Limit l) {
                out.add(indent + on + "Limit " + l.count());
            } else if (step instanceof PipelineStep.HashJoin j) {
                String build = j.build() instanceof JoinBuild.Broadcast b ? "broadcast #" + b.slot()
                        : j.build() instanceof JoinBuild.Shuffled sh ? "shuffle #" + sh.slot()
                        : j.build() instanceof JoinBuild.Exchanged e && e.byJoinKey() ? "the build rows shuffled to it"
                        : "its own partition";
                out.add(indent + on + "HashJoin " + j.kind() + (j.probeKeys().isEmpty() ? ""
                        : " ON probe" + j.probeKeys() + " = build" + j.buildKeys())
                        + (j.residual() == null ? "" : " AND " + Expr.describe(j.residual())) + ", build from " + build);
                if (j.build() instanceof JoinBuild.Local local) {
                    ScanPipeline b = local.pipeline();
                    printOnNodes(null, b.steps(), indent + "  ", on, out);
                    out.add(indent + "  " + on + "Scan " + b.table());
                }
            }
        }
        if (scan != null) {
            out.add(indent + on + "Scan " + scan.table().database() + "." + scan.table().name()
                    + (scan.alias().equals(scan.table().name()) ? "" : " AS " + scan.alias()));
        }
    }

    private static List<RelNode> inputs(RelNode n) {
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
        }
        return List.of();
    }

    private static String describe(RelNode n) {
        if (n instanceof RelNode.Scan s) {
            return "Scan " + s.table().database() + "." + s.table().name()
                    + (s.alias().equals(s.table().name()) ? "" : " AS " + s.alias())
                    + (s.filter() == null ? "" : " WHERE " + Expr.describe(s.filter()));
        } else if (n instanceof RelNode.Filter f) {
            return "Filter " + Expr.describe(f.condition());
        } else if (n instanceof RelNode.Project p) {
            return "Project " + p.fields().stream().map(Field::name).collect(Collectors.joining(", "));
        } else if (n instanceof RelNode.Join j) {
            return "HashJoin " + j.kind() + (j.leftKeys().length == 0 ? ""
                    : " ON left" + Arrays.toString(j.leftKeys()) + " = right" + Arrays.toString(j.rightKeys()))
                    + (j.residual() == null ? "" : " AND " + Expr.describe(j.residual()));
        } else if (n instanceof RelNode.Aggregate a) {
            return "Aggregate keys " + a.keys().stream().map(Expr::describe).toList() + " " + a.aggregates();
        } else if (n instanceof RelNode.FinalAggregate a) {
            return "FinalAggregate keys " + a.fields().subList(0, a.keyCount()).stream().map(Field::name).toList()
                    + " " + a.aggregates() + (a.onNodes() ? " on the nodes, each group where its key hashes" : "");
        } else if (n instanceof RelNode.NodePipeline || n instanceof RelNode.ShuffledJoin
                || n instanceof RelNode.IndexJoinSteps) {
            List<PipelineStep> steps = n instanceof RelNode.NodePipeline p ? p.steps()
                    : n instanceof RelNode.ShuffledJoin j ? j.after() : ((RelNode.IndexJoinSteps) n).steps();
            boolean partial = !steps.isEmpty() && steps.get(steps.size() - 1) instanceof PipelineStep.PartialAggregate;
            return partial ? "Gather partial aggregates"
                    : "Gather " + n.fields().stream().map(Field::name).collect(Collectors.joining(", "));
        } else if (n instanceof RelNode.Sort s) {
            return "Sort " + sortKeys(s.keys());
        } else if (n instanceof RelNode.Limit l) {
            return "Limit " + (l.offset() > 0 ? l.offset() + ", " : "") + l.count();
        } else if (n instanceof RelNode.SingleRow) {
            return "SingleRow";
        } else if (n instanceof RelNode.Union) {
            return "UnionAll";
        } else if (n instanceof RelNode.IndexJoin j) {
            StringBuilder b = new StringBuilder(joinMethods(j) + " " + j.choice() + ": " + j.spec().outerTable()
                    + (j.spec().outerAlias().equals(j.spec().outerTable()) ? "" : " AS " + j.spec().outerAlias())
                    + " WHERE " + j.spec().outerRange().column() + " BETWEEN " + j.spec().outerRange().low()
                    + " AND " + j.spec().outerRange().high());
            for (var p : j.spec().probes()) {
                b.append(", probe ").append(p.table()).append(p.alias().equals(p.table()) ? "" : " AS " + p.alias())
                        .append(" ON ").append(p.alias()).append('.').append(p.column()).append(" = ").append(p.from());
            }
            return b.toString();
        }
        return "Values " + ((RelNode.Values) n).rows().size() + " rows";
    }

    private static String joinMethods(RelNode.IndexJoin j) {
        if (j.allIndexJoins()) {
            return "IndexJoin";
        }
        return j.indexJoins() == 0 ? "SortMergeJoin" : "IndexJoin+SortMergeJoin";
    }
}
