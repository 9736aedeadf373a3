package org.oooengine.core.fragment;

import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.wire.ColumnarRows;

/**
 * A node's broadcast rows sent ahead of the pipelines that build from them ({@link JoinBuild.Staged}),
 * too many for the pipeline's own frame: held as the chunks came (columns where the wire carried
 * them so); bounded and dropped as {@link HeldRows} are.
 */
public final class StagedRows extends HeldRows<HeldRows.Entry<ColumnarRows.Chunk>, ColumnarRows.Chunk> {
    /** @param maxBytes the most bytes (as sent) held for all pipelines together */
    public StagedRows(String node, long maxBytes) {
        super(node, maxBytes, "broadcast rows");
    }

    /** As above, their heap bytes held of {@code memory}, the node's, until a pipeline reads them. */
    public StagedRows(String node, long maxBytes, NodeMemory memory) {
        super(node, maxBytes, "broadcast rows", memory);
    }

    @Override
    Entry<ColumnarRows.Chunk> newEntry() {
        return new Entry<>();
    }

    /** Adds a chunk of rows, {@code chunkBytes} long as sent, to those staged under {@code id}. */
    public void add(String id, ColumnarRows.Chunk chunk, long chunkBytes) {
        addRows(id, List.of(chunk), QueryMemory.chunkBytes(chunk), chunkBytes);
    }

    /**
     * Hands {@code chunks} the chunks staged under {@code id}, in the order they came; from now on
     * the statement that reads them counts them, not the node's rows held for pipelines to come.
     */
    public void read(String id, Consumer<ColumnarRows.Chunk> chunks) {
        Entry<ColumnarRows.Chunk> e = existing(id);
        if (e == null) {
            throw new IllegalStateException("node " + node + " has no broadcast rows " + id + " (expired or never sent)");
        }
        List<ColumnarRows.Chunk> held;
        synchronized (e) {
            e.touched = System.nanoTime();
            unhold(e); // the join that reads them reserves them of its statement's memory
            held = List.copyOf(e.rows);
        }
        held.forEach(chunks);
    }
}
