package org.oooengine.core.cluster;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.SplitPolicy;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.Table;
import org.oooengine.core.store.TableWriter;
import org.oooengine.core.types.RowCodec;

/**
 * A node's side of writes in place ({@code WRITE_ROWS}), one statement at a time, on the node's
 * write thread: the rows a statement applies stay unseen until it commits — each table's trees
 * flushed (each atomically) and published to the store's readers — or are forgotten when it rolls
 * back or fails. A statement is known by the number its coordinator gave it: a new one while another
 * is open means that one's coordinator went away (it is rolled back), as does an open statement
 * that heard nothing for {@link #ABANDONED_AFTER}. A load that swapped the store in while a
 * statement was open fails its commit: its rows were in the replaced store.
 */
final class InPlaceWrites {
    private static final Logger LOG = LogManager.getLogger(InPlaceWrites.class);
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(10);

    private final String nodeId;
    private final Supplier<Store> store;
    /** Closes a store a load replaced if it is still open: it reads the files these writes change. */
    private final Runnable closeReplacedStore;
    private long statement;
    private Store statementStore;
    /** Tables the open statement wrote, and how many rows it added to each (negative: removed). */
    private final Map<String, Long> writing = new LinkedHashMap<>();
    private long lastHeard;

    InPlaceWrites(String nodeId, Supplier<Store> store, Runnable closeReplacedStore) {
        this.nodeId = nodeId;
        this.store = store;
        this.closeReplacedStore = closeReplacedStore;
    }

    /** Whether no statement is open (a tree may be flushed without publishing a statement's rows). */
    boolean idle() {
        return writing.isEmpty();
    }

    /** Applies {@code rows} (encoded in the table's row format) of statement {@code id}; returns the rows changed. */
    long apply(long id, String table, SplitPolicy policy, ClusterWriter.RowWrite kind, List<byte[]> rows) {
        Store st = store.get();
        if (id != statement && !writing.isEmpty()) {
            LOG.warn("node {}: statement {} began while statement {} was open; its coordinator went away: rolled back",
                    nodeId, id, statement);
            rollBack(statement);
        }
        if (writing.isEmpty()) {
            closeReplacedStore.run();
            statement = id;
            statementStore = st;
        }
        lastHeard = System.nanoTime();
        writing.putIfAbsent(table, 0L); // a failure half way forgets the rows applied so far too
        try {
            st.startWriting(table);
            TableWriter w = st.writer(table, policy);
            Table t = st.table(table);
            RowCodec codec = new RowCodec(t.schema());
            int[] pk = t.primaryKeyPositions();
            long changed = 0;
            long delta = 0;
            for (byte[] encoded : rows) {
                Object[] row = codec.decode(encoded);
                switch (kind) {
                    case INSERT -> {
                        w.insert(row);
                        changed++;
                        delta++;
                    }
                    case UPDATE -> changed += w.update(row) ? 1 : 0;
                    case DELETE -> {
                        Object[] key = new Object[pk.length];
                        for (int k = 0; k < pk.length; k++) {
                            key[k] = row[pk[k]];
                        }
                        if (w.delete(key)) {
                            changed++;
                            delta--;
                        }
                    }
                }
            }
            writing.merge(table, delta, Long::sum);
            return changed;
        } catch (RuntimeException e) {
            rollBack(id);
            throw e;
        }
    }

    /** Makes statement {@code id}'s rows durable and seen. */
    void commit(long id) {
        if (writing.isEmpty()) {
            return; // none of its rows came here
        }
        if (id != statement) {
            throw new IllegalStateException("node " + nodeId + " holds the rows of statement " + statement
                    + ", not of statement " + id + ": nothing committed");
        }
        Store st = store.get();
        if (st != statementStore) {
            rollBack(id);
            throw new IllegalStateException("a load replaced node " + nodeId + "'s store while the statement ran: "
                    + "nothing written there");
        }
        try {
            for (Map.Entry<String, Long> e : writing.entrySet()) {
                st.openWriter(e.getKey()).ifPresent(TableWriter::flush);
                st.wrote(e.getKey(), e.getValue());
            }
        } catch (RuntimeException e) { // a tree could not be written: its writer goes, a new one redoes what was logged
            writing.keySet().forEach(st::closeWriter);
            writing.clear();
            throw e;
        }
        LOG.debug("node {} committed statement {} (tables {})", nodeId, id, writing.keySet());
        writing.clear();
    }

    /** Forgets what statement {@code id} applied (nothing when another statement is open). */
    void rollBack(long id) {
        if (id != statement || writing.isEmpty()) {
            return;
        }
        Store st = statementStore;
        for (String table : writing.keySet()) {
            try {
                st.openWriter(table).ifPresent(TableWriter::discard);
            } catch (RuntimeException e) { // a writer that failed in a flush cannot forget: it is dropped, and reopened
                st.closeWriter(table);
            }
        }
        writing.clear();
    }

    /** Rolls back an open statement that heard nothing from its coordinator for {@link #ABANDONED_AFTER}. */
    void rollBackAbandoned() {
        if (!writing.isEmpty() && System.nanoTime() - lastHeard > ABANDONED_AFTER.toNanos()) {
            LOG.warn("node {}: statement {} heard nothing for {} s: rolled back", nodeId, statement,
                    ABANDONED_AFTER.toSeconds());
            rollBack(statement);
        }
    }
}
