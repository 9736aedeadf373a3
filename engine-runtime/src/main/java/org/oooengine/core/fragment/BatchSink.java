package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.vector.Batch;

/**
 * Where a pipeline's rows go, when it takes them as column batches too: a vectorized pipeline
 * hands it its batches as they are rather than boxing every value into rows (a shuffle writes
 * them on the wire column by column). Rows still come where a step ran on rows.
 */
public interface BatchSink extends Consumer<List<Object[]>> {
    /**
     * The rows at {@code batch}'s positions; column c holds values of {@code types[c]}, or is null
     * (not read). The vectors are the producer's again once this returns: copy what is kept.
     */
    void acceptBatch(Batch batch, SqlType[] types);

    /** Hands {@code out} a batch: as it is if it takes batches, else as rows. */
    static void send(Consumer<List<Object[]>> out, Batch batch, SqlType[] types) {
        if (out instanceof BatchSink sink) {
            sink.acceptBatch(batch, types);
        } else {
            out.accept(batch.toRows(types));
        }
    }
}
