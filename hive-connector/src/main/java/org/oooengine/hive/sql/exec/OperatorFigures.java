package org.oooengine.hive.sql.exec;

/**
 * What EXPLAIN ANALYZE measured of one operator: the rows it handed on and its wall time, its
 * inputs' included; for an operator that holds rows on the coordinator, what it held and spilled
 * there ({@code held}); for a pipeline of the nodes, what they reported ({@code nodes}); for a
 * shuffle's producers, what they sent ({@code sent}); for an index join, how the nodes looked its
 * keys up ({@code lookups}). Null where not measured.
 */
public record OperatorFigures(long rows, long nanos, Held held, TableReader.NodeFigures nodes, TableReader.Sent sent,
                              IndexJoinRunner.Lookups lookups) {
    /**
     * What the statement held on the coordinator while the operator ran, above what it held when
     * it started (its inputs' included, as its time), and the bytes the operator itself spilled.
     */
    public record Held(long peakMemoryBytes, long spilledBytes) {
    }

    public static OperatorFigures of(long rows, long nanos) {
        return new OperatorFigures(rows, nanos, null, null, null, null);
    }

    public OperatorFigures withHeld(Held h) {
        return new OperatorFigures(rows, nanos, h, nodes, sent, lookups);
    }

    public OperatorFigures withNodes(TableReader.NodeFigures n) {
        return new OperatorFigures(rows, nanos, held, n == null || n.none() ? null : n, sent, lookups);
    }

    public OperatorFigures withSent(TableReader.Sent s) {
        return new OperatorFigures(rows, nanos, held, nodes, s, lookups);
    }

    public OperatorFigures withLookups(IndexJoinRunner.Lookups l) {
        return new OperatorFigures(rows, nanos, held, nodes, sent, l);
    }
}
