import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.oooengine.core.tpch.TpchSchema;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;

/**
 * The TPC-H tables exactly as 'ooo load tpch' loads them (same generator, same column types, money
 * as DECIMAL(15,2)), written as files other engines read: OUT/<table>.tbl, '|'-separated, one row
 * per line, decimals with their two digits and dates as ISO dates; and OUT/<table>.columns, one
 * "name<TAB>SQL type" line per column. Usage: java -cp <ooo classpath> TpchData.java SF OUT
 */
public class TpchData {
    public static void main(String[] args) throws Exception {
        double sf = Double.parseDouble(args[0]);
        Path out = Files.createDirectories(Path.of(args[1]));
        for (TpchTable<?> table : TpchSchema.tables()) {
            long t0 = System.nanoTime();
            long rows = write(table, sf, out);
            System.err.printf("%-9s %,11d rows  %.1f s%n", table.getTableName(), rows, (System.nanoTime() - t0) / 1e9);
        }
    }

    private static <E extends TpchEntity> long write(TpchTable<E> table, double sf, Path out) throws Exception {
        Schema schema = TpchSchema.definition(table).schema();
        List<String> columns = new ArrayList<>();
        for (Column c : schema.columns()) {
            columns.add(c.name() + "\t" + c.type());
        }
        Files.write(out.resolve(table.getTableName() + ".columns"), columns);
        long rows = 0;
        StringBuilder line = new StringBuilder();
        try (BufferedWriter w = Files.newBufferedWriter(out.resolve(table.getTableName() + ".tbl"))) {
            for (E entity : table.createGenerator(sf, 1, 1)) {
                Object[] row = TpchSchema.row(table.getColumns(), entity);
                line.setLength(0);
                for (int i = 0; i < row.length; i++) {
                    line.append(i == 0 ? "" : "|").append(schema.type(i).format(row[i]));
                }
                w.append(line).append('\n');
                rows++;
            }
        }
        return rows;
    }
}
