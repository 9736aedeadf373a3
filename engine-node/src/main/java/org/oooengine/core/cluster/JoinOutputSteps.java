package org.oooengine.core.cluster;

import java.util.BitSet;
import java.util.List;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprCodec;

/**
 * Steps each node runs over its share of an index join's rows before sending them (filters,
 * projections, a partial aggregate): the rows' SQL {@code types}, by which their stored values
 * become SQL values, then the steps over rows of that many columns.
 */
public record JoinOutputSteps(List<SqlType> types, List<PipelineStep> steps) {
    public JoinOutputSteps {
        types = List.copyOf(types);
        steps = List.copyOf(steps);
    }

    /** The steps as a pipeline over rows of {@link #types}' width (its table names none). */
    public ScanPipeline pipeline() {
        BitSet all = new BitSet();
        all.set(0, types.size());
        return new ScanPipeline("", types.size(), all, steps);
    }

    void write(PayloadWriter w) {
        w.putVarInt(types.size());
        types.forEach(t -> ExprCodec.writeType(w, t));
        w.putBytes(pipeline().toBytes());
    }

    static JoinOutputSteps read(PayloadReader r) {
        int n = r.getCount(1);
        List<SqlType> types = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            types.add(ExprCodec.readType(r));
        }
        ScanPipeline p = ScanPipeline.read(new PayloadReader(r.getBytes()));
        if (p.width() != n) {
            throw new ProtocolException("steps over rows of " + p.width() + " columns for a join of " + n);
        }
        return new JoinOutputSteps(types, p.steps());
    }
}
