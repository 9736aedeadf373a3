package org.oooengine.optimizer.plan;

import java.util.List;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.optimizer.cost.CostTerms;

/**
 * An operator of a left-deep plan with its estimates: the rows it produces and the seconds from
 * the start of the query until it has produced them all.
 */
public sealed interface PlanNode permits PlanNode.Scan, PlanNode.Join {
    double rows();

    double seconds();

    /**
     * The driving table read by its access path, the range applied as it is read.
     *
     * @param predicate the range as people read it (values formatted by the column's type)
     */
    record Scan(String alias, String table, ColumnRange range, String predicate, AccessPath path, double rows,
                double seconds) implements PlanNode {
    }

    /**
     * {@code left} joined with table {@code table} under {@code alias}: rows of {@code left} whose
     * {@code from} equals the new table's {@code column}.
     *
     * @param jobs the estimates of the MapReduce jobs this join adds, in the order they run: none
     *             for an index join; for a PSMJ join its own job, after the map-only job of the
     *             index joins before it if there are any
     */
    record Join(PlanNode left, String alias, String table, String from, String column, JoinMethod method,
                double rows, double seconds, List<CostTerms> jobs) implements PlanNode {
        public Join {
            jobs = List.copyOf(jobs);
        }

        /** Seconds this join adds to the plan. */
        public double ownSeconds() {
            return seconds - left.seconds();
        }
    }
}
