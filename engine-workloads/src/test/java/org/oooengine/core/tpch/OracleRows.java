package org.oooengine.core.tpch;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.store.Store;
import org.oooengine.core.types.DataType;

/** A join spec as the oracle's SQL, and result rows rendered as the oracle renders them, sorted. */
public final class OracleRows {
    private OracleRows() {
    }

    /** The SQL that returns what {@code spec} should; {@code store} supplies the column types. */
    public static String sql(Store store, JoinSpec spec) {
        return JoinQueries.sql(spec, table -> store.table(table).schema());
    }

    public static List<String> render(Store store, JoinSpec spec, List<Object[]> rows) {
        List<DataType> types = new ArrayList<>();
        for (String c : spec.output()) {
            var t = store.table(spec.tableOf(c.substring(0, c.indexOf('.'))));
            types.add(t.schema().type(t.schema().indexOf(c.substring(c.indexOf('.') + 1))));
        }
        return render(types, rows);
    }

    public static List<String> render(List<DataType> types, List<Object[]> rows) {
        List<String> out = new ArrayList<>();
        for (Object[] row : rows) {
            StringJoiner j = new StringJoiner("|");
            for (int i = 0; i < row.length; i++) {
                j.add(types.get(i).format(row[i]));
            }
            out.add(j.toString());
        }
        out.sort(null);
        return out;
    }
}
