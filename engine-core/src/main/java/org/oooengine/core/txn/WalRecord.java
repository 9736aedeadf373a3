package org.oooengine.core.txn;

import java.util.List;

/** One committed transaction as the WAL holds it: its commit timestamp or LSN, and its writes. */
record WalRecord(long order, List<Change> changes) {
    /** A row's new value; null for a delete. */
    record Change(String table, byte[] key, byte[] value) {
    }
}
