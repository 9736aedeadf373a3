package org.oooengine.core.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.TableDefinition;

/**
 * TPC-H data the tests need again and again, made once per test JVM: each table's rows as the
 * '|'-separated text DuckDB reads, and the single-node store of every table. Forty-odd test
 * classes start a cluster at the same scale factor; generating, formatting and indexing the same
 * rows for each was a good part of their setup. Kept in a temporary directory removed when the
 * JVM exits; users copy the store, so none of them sees another's writes.
 */
public final class GeneratedTpch {
    private static Path root;
    private static final Map<String, Path> MADE = new HashMap<>();

    private GeneratedTpch() {
    }

    /**
     * A file holding {@code table}'s rows at {@code scaleFactor}, one line per row, its columns as
     * their types format them separated by '|' (TPC-H text never contains '|'). Read it, do not
     * change it.
     */
    public static synchronized <E extends TpchEntity> Path text(TpchTable<E> table, double scaleFactor) throws IOException {
        Path file = MADE.get("text " + table.getTableName() + " " + scaleFactor);
        if (file != null) {
            return file;
        }
        TableDefinition def = TpchSchema.definition(table);
        file = root().resolve(def.name() + "-sf" + scaleFactor + ".tbl");
        List<TpchColumn<E>> cols = table.getColumns();
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            for (E e : table.createGenerator(scaleFactor, 1, 1)) {
                Object[] row = TpchSchema.row(cols, e);
                StringJoiner line = new StringJoiner("|");
                for (int i = 0; i < row.length; i++) {
                    line.add(def.schema().type(i).format(row[i]));
                }
                w.write(line.toString());
                w.newLine();
            }
        }
        MADE.put("text " + table.getTableName() + " " + scaleFactor, file);
        return file;
    }

    /**
     * Makes {@code target} a single-node store of every TPC-H table as {@code loader} loads it: a
     * copy of one loaded the first time these settings were asked for.
     */
    public static synchronized void copyStore(TpchLoader loader, Path target) throws Exception {
        String key = "store " + loader.scaleFactor() + " " + loader.pageSize() + " " + loader.fillFactor();
        Path store = MADE.get(key);
        if (store == null) {
            store = root().resolve("store-" + MADE.size());
            loader.load(store, false, (t, d, e) -> { });
            MADE.put(key, store);
        }
        Path from = store;
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path to = target.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
    }

    private static Path root() throws IOException {
        if (root == null) {
            Path dir = Files.createTempDirectory("ooo-generated-tpch");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Directories.deleteRecursively(dir)));
            root = dir;
        }
        return root;
    }
}
