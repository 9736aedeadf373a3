package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.oooengine.core.net.PayloadReader;
import org.oooengine.core.net.PayloadWriter;
import org.oooengine.core.net.ProtocolException;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ExprCodec;
import org.oooengine.core.sql.expr.Exprs;

/**
 * The work a node does on its own partition of one table before anything crosses the network:
 * scan it, decoding only {@code columns} into rows of {@code width} SQL values (the table's
 * declared columns, the others left null), then apply {@code steps} in order. The rows that come
 * out (for a partial aggregate: its groups' states) are what the node sends.
 */
public record ScanPipeline(String table, int width, BitSet columns, List<PipelineStep> steps) {
    public ScanPipeline {
        columns = (BitSet) columns.clone();
        steps = List.copyOf(steps);
        if (columns.length() > width) {
            throw new IllegalArgumentException("column " + (columns.length() - 1) + " of a table of " + width + " columns");
        }
    }

    /**
     * A pipeline that reads what {@code steps} need of the table, and also {@code neededAfter}
     * when its rows leave as table rows (no projection or aggregate ends it).
     */
    public static ScanPipeline of(String table, int width, List<PipelineStep> steps, BitSet neededAfter) {
        return new ScanPipeline(table, width, columnsRead(steps, neededAfter), steps);
    }

    /** The table columns {@code steps} read, walking back from the end: a projection or aggregate needs only its own inputs. */
    static BitSet columnsRead(List<PipelineStep> steps, BitSet neededAfter) {
        BitSet need = (BitSet) neededAfter.clone();
        for (int i = steps.size() - 1; i >= 0; i--) {
            PipelineStep step = steps.get(i);
            if (step instanceof PipelineStep.Filter f) {
                need.or(Exprs.columns(f.condition()));
            } else if (step instanceof PipelineStep.Project p) {
                need = new BitSet();
                for (Expr e : p.exprs()) {
                    need.or(Exprs.columns(e));
                }
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                need = new BitSet();
                for (Expr e : a.keys()) {
                    need.or(Exprs.columns(e));
                }
                for (AggregateCall call : a.aggregates()) {
                    if (call.arg() != null) {
                        need.or(Exprs.columns(call.arg()));
                    }
                }
            }
        }
        return need;
    }

    private static final byte FILTER = 1;
    private static final byte PROJECT = 2;
    private static final byte PARTIAL_AGGREGATE = 3;

    public byte[] toBytes() {
        PayloadWriter w = new PayloadWriter(256).putString(table).putVarInt(width);
        w.putBytes(columns.toByteArray()).putVarInt(steps.size());
        for (PipelineStep step : steps) {
            if (step instanceof PipelineStep.Filter f) {
                w.put(FILTER);
                ExprCodec.write(w, f.condition());
            } else if (step instanceof PipelineStep.Project p) {
                w.put(PROJECT);
                ExprCodec.writeList(w, p.exprs());
            } else if (step instanceof PipelineStep.PartialAggregate a) {
                w.put(PARTIAL_AGGREGATE);
                ExprCodec.writeList(w, a.keys());
                w.putVarInt(a.aggregates().size());
                a.aggregates().forEach(call -> ExprCodec.writeAggregate(w, call));
            }
        }
        return w.toByteArray();
    }

    public static ScanPipeline read(PayloadReader r) {
        String table = r.getString();
        int width = r.getVarInt();
        BitSet columns = BitSet.valueOf(r.getBytes());
        int n = r.getCount(1);
        List<PipelineStep> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte tag = r.get();
            steps.add(switch (tag) {
                case FILTER -> new PipelineStep.Filter(ExprCodec.read(r));
                case PROJECT -> new PipelineStep.Project(ExprCodec.readList(r));
                case PARTIAL_AGGREGATE -> {
                    var keys = ExprCodec.readList(r);
                    int calls = r.getCount(1);
                    List<AggregateCall> aggregates = new ArrayList<>(calls);
                    for (int c = 0; c < calls; c++) {
                        aggregates.add(ExprCodec.readAggregate(r));
                    }
                    yield new PipelineStep.PartialAggregate(keys, aggregates);
                }
                default -> throw new ProtocolException("unknown pipeline step " + tag);
            });
        }
        try {
            return new ScanPipeline(table, width, columns, steps);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("a pipeline that cannot run: " + e.getMessage());
        }
    }
}
