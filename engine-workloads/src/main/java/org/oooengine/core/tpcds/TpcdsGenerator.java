package org.oooengine.core.tpcds;

import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import java.util.Iterator;
import java.util.List;

/**
 * TPC-DS rows from {@code io.trino.tpcds}, the Java port of the specification's dsdgen: the same
 * scale factor gives the same rows, so the engine and DuckDB can be loaded alike. Scale factors
 * below 1 are not the specification's; the generator shrinks the scaled tables down to about 0.01
 * (smaller ones give the same rows as 0.01) and keeps the fixed-size ones (customer_demographics'
 * 1,920,800 rows, date_dim's 73,049, time_dim's 86,400) whole.
 */
public final class TpcdsGenerator {
    /** Below it the generator gives the rows of this scale factor. */
    public static final double MIN_SCALE_FACTOR = 0.01;

    private final double scaleFactor;

    public TpcdsGenerator(double scaleFactor) {
        if (!(scaleFactor >= MIN_SCALE_FACTOR)) {
            throw new IllegalArgumentException("scale factor must be at least " + MIN_SCALE_FACTOR + ", got " + scaleFactor
                    + " (the generator makes no smaller data set)");
        }
        this.scaleFactor = scaleFactor;
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    /** The rows of one table in generation order, as {@link TpcdsSchema#row} converts them. */
    public Iterator<Object[]> rows(Table table) {
        Column[] columns = table.getColumns();
        Session session = Session.getDefaultSession().withScale(scaleFactor).withTable(table);
        // Each step yields the table's row; a returns table's rows come from generating its sales.
        Iterator<List<List<String>>> it = Results.constructResults(table, session).iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Object[] next() {
                return TpcdsSchema.row(columns, it.next().get(0));
            }
        };
    }

    /**
     * About how many rows a table gets, for progress: the generator's count, which for a sales table
     * counts orders (about 12 lines each in store and web sales, 9 in catalog sales), and returns
     * about a tenth of the sales lines.
     */
    public long expectedRows(Table table) {
        io.trino.tpcds.Scaling scaling = Session.getDefaultSession().withScale(scaleFactor).getScaling();
        return switch (table.getName()) {
            case "store_sales", "web_sales" -> scaling.getRowCount(table) * 12;
            case "catalog_sales" -> scaling.getRowCount(table) * 9;
            case "store_returns", "web_returns" -> scaling.getRowCount(table.getParent()) * 12 / 10;
            case "catalog_returns" -> scaling.getRowCount(table.getParent()) * 9 / 10;
            default -> scaling.getRowCount(table);
        };
    }
}
