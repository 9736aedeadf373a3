package org.oooengine.core.txn;

/**
 * A row's new value in a transactional table, as the WAL records it and as commits are shipped:
 * the encoded primary key and the encoded row, or a null value for a delete. After-images only,
 * so applying the changes of one key in commit order leaves its last value, however often applied.
 */
public record RowChange(String table, byte[] key, byte[] value) {
    public boolean isDelete() {
        return value == null;
    }
}
