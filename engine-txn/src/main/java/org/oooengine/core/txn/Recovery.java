package org.oooengine.core.txn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Replays the WAL files of one epoch in an order that respects every dependency.
 *
 * <p>NLR files hold commit timestamps: a transaction's timestamp exceeds those of the
 * transactions it read from or overwrote, and under NLR those were durable before it could see
 * them. So each file is sorted by timestamp and the files are merged, smallest first.
 *
 * <p>ELR files hold LSNs, handed out once per committed writer with no gaps. Records are merged
 * by LSN and replay stops at the first missing LSN: a later record may depend on the lost one,
 * and it was never acknowledged, since acknowledgement waits until all workers have flushed
 * that far.
 */
final class Recovery {
    private static final Logger LOG = LogManager.getLogger(Recovery.class);

    private Recovery() {
    }

    /** Applies the replayable records of {@code files} to {@code apply}; returns the last order replayed. */
    static long replay(List<WalReader.Contents> files, Consumer<WalRecord> apply) {
        if (files.isEmpty()) {
            return 0;
        }
        boolean byLsn = files.get(0).header().ordering() == WalHeader.Ordering.LSN;
        for (WalReader.Contents c : files) {
            if ((c.header().ordering() == WalHeader.Ordering.LSN) != byLsn) {
                throw new WalFormatException("WAL files of epoch " + c.header().epoch()
                        + " mix record orderings: " + c.file() + " differs from " + files.get(0).file());
            }
        }
        record Cursor(List<WalRecord> records, int index) {
            WalRecord head() {
                return records.get(index);
            }
        }
        // Ties: a prepare comes before its outcome, which carries the same commit timestamp.
        PriorityQueue<Cursor> heads = new PriorityQueue<>(Comparator.<Cursor>comparingLong(c -> c.head().order())
                .thenComparing(c -> c.head().kind()));
        for (WalReader.Contents c : files) {
            List<WalRecord> sorted = new ArrayList<>(c.records());
            if (!byLsn) {
                sorted.sort(Comparator.comparingLong(WalRecord::order).thenComparing(WalRecord::kind));
            }
            if (!sorted.isEmpty()) {
                heads.add(new Cursor(sorted, 0));
            }
        }
        long last = 0;
        long replayed = 0;
        while (!heads.isEmpty()) {
            Cursor c = heads.poll();
            WalRecord r = c.head();
            if (byLsn && r.order() != last + 1) {
                long dropped = heads.stream().mapToLong(h -> h.records().size() - h.index()).sum()
                        + c.records().size() - c.index();
                LOG.warn("WAL replay stops at LSN {}: LSN {} is missing, {} later records are not replayed",
                        last, last + 1, dropped);
                break;
            }
            apply.accept(r);
            last = Math.max(last, r.order());
            replayed++;
            if (c.index() + 1 < c.records().size()) {
                heads.add(new Cursor(c.records(), c.index() + 1));
            }
        }
        LOG.info("replayed {} WAL records from {} files", replayed, files.size());
        return last;
    }
}
