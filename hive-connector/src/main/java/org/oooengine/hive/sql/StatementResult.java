package org.oooengine.hive.sql;

import java.util.Iterator;
import java.util.List;
import org.oooengine.optimizer.catalog.ResultColumn;

/**
 * What a statement returns: a result set (columns and rows, read once, in order), or for DDL and
 * DML no result set and the number of rows it changed (-1 when unknown or not applicable).
 */
public record StatementResult(List<ResultColumn> columns, Iterator<Object[]> rows, long updateCount) {
    public static StatementResult rows(List<ResultColumn> columns, Iterator<Object[]> rows) {
        return new StatementResult(columns, rows, -1);
    }

    public static StatementResult update(long count) {
        return new StatementResult(List.of(), null, count);
    }

    public boolean hasResultSet() {
        return rows != null;
    }
}
