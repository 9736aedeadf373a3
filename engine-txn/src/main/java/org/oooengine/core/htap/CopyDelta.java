package org.oooengine.core.htap;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Predicate;
import org.oooengine.core.store.Table;
import org.oooengine.core.txn.RowChange;
import org.oooengine.core.txn.ShippedCommit;

/**
 * The commits a read copy's B+trees lack, held in memory by key and merged into its scans, so a
 * query sees a commit as soon as the applier has it rather than after the next switch. Each key
 * keeps its versions, newest first, numbered by commit: a scan reads as of the last commit whole
 * when it started and so never sees part of one, however the applier goes on meanwhile.
 *
 * <p>One thread adds (the applier); any number read. A delta lives from one switch to the next:
 * the copy that becomes the read copy holds its commits in its trees.
 */
final class CopyDelta {
    /** A key's value after commit {@code seq} (null: deleted), and its value before. */
    private record Version(long seq, byte[] value, Version older) {
        /** The newest version no later than commit {@code at}; null when the key was not changed by then. */
        Version asOf(long at) {
            Version v = this;
            while (v != null && v.seq > at) {
                v = v.older;
            }
            return v;
        }
    }

    /** Keys in the copy's B+tree order: encoded keys compared as unsigned bytes. */
    private static final java.util.Comparator<byte[]> KEY_ORDER = Arrays::compareUnsigned;

    private final AnalyticalCopy copy;
    private final Map<String, ConcurrentSkipListMap<byte[], Version>> byTable = new ConcurrentHashMap<>();
    /** Distinct keys changed, by copy table. */
    private final Map<String, Integer> keys = new ConcurrentHashMap<>();
    /** Rows added less rows deleted, by copy table, against the copy's trees. */
    private final Map<String, Long> addedRows = new ConcurrentHashMap<>();
    /** The number of the last commit the copy's trees hold. */
    private final long base;
    /** Commits numbered up to this one are in whole. */
    private volatile long visible;
    /** When the first commit added became visible in the transactional tables; -1 before any. */
    private volatile long firstVisibleNanos = -1;

    /**
     * @param copy the read copy whose trees this completes
     * @param base the number of the last commit the copy's trees hold
     */
    CopyDelta(AnalyticalCopy copy, long base) {
        this.copy = copy;
        this.base = base;
        this.visible = base;
    }

    /** Adds {@code commits}, numbered from {@code visible() + 1} on, then shows them to scans starting from now. */
    void add(List<ShippedCommit> commits) {
        if (firstVisibleNanos < 0 && !commits.isEmpty()) {
            firstVisibleNanos = commits.get(0).visibleAtNanos();
        }
        long seq = visible;
        for (ShippedCommit c : commits) {
            seq++;
            for (RowChange ch : c.changes()) {
                String table = copy.copyTableOf(ch.table());
                if (table == null) {
                    continue;
                }
                long s = seq;
                byTable.computeIfAbsent(table, t -> new ConcurrentSkipListMap<>(KEY_ORDER))
                        .compute(ch.key(), (k, older) -> {
                            boolean existed;
                            if (older == null) {
                                keys.merge(table, 1, Integer::sum);
                                existed = copy.store().table(table).tree().get(k).join() != null;
                            } else {
                                existed = older.value() != null;
                            }
                            int added = (ch.value() != null ? 1 : 0) - (existed ? 1 : 0);
                            if (added != 0) {
                                addedRows.merge(table, (long) added, Long::sum);
                            }
                            return new Version(s, ch.value(), older);
                        });
            }
        }
        visible = seq;
    }

    /** The number of the last commit scans starting now see. */
    long visible() {
        return visible;
    }

    /** The number of the last commit the copy's trees hold: a scan as of it sees none of this delta. */
    long base() {
        return base;
    }

    /** When the first commit here became visible in the transactional tables (nanoTime); -1 while there is none. */
    long firstVisibleNanos() {
        return firstVisibleNanos;
    }

    /** Distinct keys of copy table {@code table} changed here. */
    int changedKeys(String table) {
        return keys.getOrDefault(table, 0);
    }

    /** Distinct keys changed here, over all tables: how much every scan of the read copy merges. */
    long changedKeys() {
        return keys.values().stream().mapToLong(Integer::longValue).sum();
    }

    /** Rows of copy table {@code table} added here less those deleted: what a scan sees beyond the trees' count. */
    long addedRows(String table) {
        return addedRows.getOrDefault(table, 0L);
    }

    /**
     * Scans {@code table} of the read copy as of commit {@code at}: its B+tree's rows in key order
     * with this delta's changes merged in, until {@code row} returns false.
     */
    void scan(Table table, long at, Predicate<Object[]> row) {
        Iterator<Map.Entry<byte[], Version>> changes =
                byTable.getOrDefault(table.name(), EMPTY).entrySet().iterator();
        MergedScan merge = new MergedScan(table, at, changes, row);
        table.tree().scan(new byte[0], null, merge::base).join();
        merge.rest();
    }

    private static final ConcurrentSkipListMap<byte[], Version> EMPTY = new ConcurrentSkipListMap<>(KEY_ORDER);

    /** A tree scan and the delta's changes of one table, both in key order, merged. */
    private static final class MergedScan {
        private final Table table;
        private final long at;
        private final Iterator<Map.Entry<byte[], Version>> changes;
        private final Predicate<Object[]> row;
        private Map.Entry<byte[], Version> next;
        private boolean more = true;

        MergedScan(Table table, long at, Iterator<Map.Entry<byte[], Version>> changes, Predicate<Object[]> row) {
            this.table = table;
            this.at = at;
            this.changes = changes;
            this.row = row;
            advance();
        }

        /** A row of the tree: changes to keys before it go first; a change to its key replaces it. */
        boolean base(org.oooengine.core.storage.Page leaf, int slot) {
            if (next == null) {
                return more = row.test(table.rowAt(leaf, slot));
            }
            byte[] key = leaf.key(slot);
            int cmp;
            while (more && next != null && (cmp = KEY_ORDER.compare(next.getKey(), key)) <= 0) {
                Version v = next.getValue().asOf(at);
                advance();
                if (cmp == 0 && v == null) {
                    break; // changed only after this scan began: the tree's row stands
                }
                if (v != null && v.value() != null) {
                    more = row.test(table.decodeRow(v.value()));
                }
                if (cmp == 0) {
                    return more;
                }
            }
            return more && (more = row.test(table.rowAt(leaf, slot)));
        }

        /** Rows added after the tree's last key. */
        void rest() {
            while (more && next != null) {
                Version v = next.getValue().asOf(at);
                advance();
                if (v != null && v.value() != null) {
                    more = row.test(table.decodeRow(v.value()));
                }
            }
        }

        private void advance() {
            next = changes.hasNext() ? changes.next() : null;
        }
    }
}
