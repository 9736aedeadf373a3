package org.oooengine.core.fragment;

import java.util.List;

/**
 * A node's broadcast rows sent ahead of the pipelines that build from them ({@link JoinBuild.Staged}),
 * too many for the pipeline's own frame; bounded and dropped as {@link HeldRows} are.
 */
public final class StagedRows extends HeldRows<HeldRows.Entry<Object[]>, Object[]> {
    /** @param maxBytes the most bytes (as sent) held for all pipelines together */
    public StagedRows(String node, long maxBytes) {
        super(node, maxBytes, "broadcast rows");
    }

    /** As above, their heap bytes held of {@code memory}, the node's, until a pipeline reads them. */
    public StagedRows(String node, long maxBytes, NodeMemory memory) {
        super(node, maxBytes, "broadcast rows", memory);
    }

    @Override
    Entry<Object[]> newEntry() {
        return new Entry<>();
    }

    /** Adds a chunk of rows, {@code chunkBytes} long as sent, to those staged under {@code id}. */
    public void add(String id, List<Object[]> rows, long chunkBytes) {
        addRows(id, rows, QueryMemory.rowsBytes(rows), chunkBytes);
    }

    /**
     * The rows staged under {@code id}; from now on the statement that reads them counts them,
     * not the node's rows held for pipelines to come.
     */
    public List<Object[]> rows(String id) {
        Entry<Object[]> e = existing(id);
        if (e == null) {
            throw new IllegalStateException("node " + node + " has no broadcast rows " + id + " (expired or never sent)");
        }
        synchronized (e) {
            e.touched = System.nanoTime();
            unhold(e); // the join that reads them reserves them of its statement's memory
            return List.copyOf(e.rows);
        }
    }
}
