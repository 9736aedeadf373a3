package org.oooengine.hive.server;

import java.util.List;

/** Rows for one FetchResults answer; {@code startOffset} is the 0-based index of the first one. */
record RowBatch(long startOffset, List<Object[]> rows) {
}
