package org.oooengine.core.fragment;

import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

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
    }

    /**
     * The first half of a GROUP BY: per group of {@code keys} the running states of
     * {@code aggregates}; rows out are the keys, then {@link AggregateCall#PARTIAL_WIDTH} values
     * per aggregate, for a {@link FinalAggregation} to merge. Emitted when the input ends.
     */
    record PartialAggregate(List<Expr> keys, List<AggregateCall> aggregates) implements PipelineStep {
        public PartialAggregate {
            for (AggregateCall call : aggregates) {
                if (!call.splittable()) {
                    throw new IllegalArgumentException(call + " cannot be aggregated in two steps");
                }
            }
        }
    }
}
