package org.oooengine.hive.files;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.hive.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.SqlException;
import org.oooengine.hive.sql.SqlType;
import org.oooengine.hive.sql.exec.TableReader;

/**
 * Reads tables held in files: by default the one location a table's {@code storage} names, in
 * the layout its properties give ({@link FileLayout#fromProperties}); a catalog that knows more
 * (a partitioned table's partitions) supplies the parts to read instead.
 */
public final class FileTableReader implements TableReader {
    private final Configuration conf;
    private final Function<TableInfo, List<FilePart>> parts;

    /** Reads each table from its storage location. */
    public FileTableReader(Configuration conf) {
        this(conf, FileTableReader::wholeTable);
    }

    /** Reads each table from the parts {@code parts} lists for it. */
    public FileTableReader(Configuration conf, Function<TableInfo, List<FilePart>> parts) {
        this.conf = conf;
        this.parts = parts;
    }

    /** Whether {@code table} is held in files (its properties name a file format). */
    public static boolean holds(TableInfo table) {
        return table.properties().containsKey(FileLayout.FORMAT);
    }

    private static List<FilePart> wholeTable(TableInfo table) {
        FileLayout layout = FileLayout.fromProperties(table.properties()).orElseThrow(() -> new SqlException(
                SqlException.GENERAL, "table " + table.database() + "." + table.name() + " is not held in files"));
        return List.of(FilePart.whole(table.storage(), layout));
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.database() + "." + table.name();
        for (FilePart part : parts.apply(table)) {
            int stored = table.columns().size() - part.partitionValues().size();
            Schema schema = fileSchema(name, table, stored);
            SqlType[] types = schema.columns().stream().map(c -> SqlType.of(c.type())).toArray(SqlType[]::new);
            try {
                TableFiles.read(part.location(), part.layout(), schema, conf, row -> {
                    cancel.check();
                    Object[] out = new Object[table.columns().size()];
                    for (int c = needed.nextSetBit(0); c >= 0 && c < stored; c = needed.nextSetBit(c + 1)) {
                        out[c] = types[c].fromStored(row[c]);
                    }
                    for (int p = 0; p < part.partitionValues().size(); p++) {
                        out[stored + p] = part.partitionValues().get(p);
                    }
                    sink.accept(out);
                });
            } catch (TableFileException e) {
                throw new SqlException(SqlException.GENERAL, "table " + name + ": " + e.getMessage(), e);
            }
        }
        cancel.check();
    }

    /** The table's first {@code count} columns, as the files hold them. */
    private static Schema fileSchema(String name, TableInfo table, int count) {
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < count; c++) {
            var column = table.columns().get(c);
            try {
                columns.add(new Column(column.name(), StoredTypes.of(column.type())));
            } catch (IllegalArgumentException e) {
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + name + ", column " + column.name()
                        + ": " + e.getMessage());
            }
        }
        return new Schema(columns);
    }
}
