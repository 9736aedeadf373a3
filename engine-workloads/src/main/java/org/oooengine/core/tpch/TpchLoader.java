package org.oooengine.core.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.PageFormat;
import org.oooengine.core.stats.StatisticsCollector;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.store.TableLoader;

/** Generates TPC-H with {@code io.trino.tpch} straight into a store directory. */
public final class TpchLoader {
    private static final Logger LOG = LogManager.getLogger(TpchLoader.class);

    /** Reports load progress: table, rows done so far, rows expected. */
    @FunctionalInterface
    public interface Progress {
        void update(String table, long rowsDone, long rowsExpected);
    }

    /** The smallest scale factor whose generated data has unique primary keys. */
    public static final double MIN_SCALE_FACTOR = 0.01;

    private final double scaleFactor;
    private final int pageSize;
    private final double fillFactor;

    public double scaleFactor() {
        return scaleFactor;
    }

    public int pageSize() {
        return pageSize;
    }

    public double fillFactor() {
        return fillFactor;
    }

    public TpchLoader(double scaleFactor, int pageSize, double fillFactor) {
        if (!(scaleFactor >= MIN_SCALE_FACTOR)) {
            throw new IllegalArgumentException("scale factor must be at least " + MIN_SCALE_FACTOR + ", got " + scaleFactor
                    + " (below it the generator has so few suppliers that partsupp repeats primary keys)");
        }
        PageFormat.checkPageSize(pageSize);
        if (!(fillFactor > 0.1 && fillFactor <= 1.0)) {
            throw new IllegalArgumentException("fill factor must be in (0.1, 1.0], got " + fillFactor);
        }
        this.scaleFactor = scaleFactor;
        this.pageSize = pageSize;
        this.fillFactor = fillFactor;
    }

    /**
     * Loads every table into {@code dir}. A directory that already holds files is refused unless
     * {@code replace}, so a store is never overwritten by accident.
     */
    public StoreManifest load(Path dir, boolean replace, Progress progress) throws Exception {
        prepare(dir, replace);
        long t0 = System.nanoTime();
        List<StoreManifest.TableMeta> tables = new ArrayList<>();
        for (TpchTable<?> t : TpchSchema.tables()) {
            tables.add(loadTable(dir, t, progress));
        }
        Directories.deleteRecursively(dir.resolve("tmp"));
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("generator", "tpch");
        source.put("library", "io.trino.tpch");
        source.put("scaleFactor", scaleFactor);
        StoreManifest m = new StoreManifest(StoreManifest.FORMAT_VERSION, pageSize, fillFactor, source,
                Instant.now().toString(), (System.nanoTime() - t0) / 1e9, tables);
        m.write(dir);
        LOG.info("loaded TPC-H SF {} into {} in {} s", scaleFactor, dir, String.format("%.1f", m.loadSeconds()));
        try (Store store = Store.open(dir, StoreOptions.defaults().withDirectIo(false))) {
            StatisticsCollector.collectAfterLoad(store);
        }
        return m;
    }

    private <E extends TpchEntity> StoreManifest.TableMeta loadTable(Path dir, TpchTable<E> table, Progress progress)
            throws Exception {
        long expected = expectedRows(table.getTableName());
        progress.update(table.getTableName(), 0, expected);
        return new TableLoader(dir, pageSize, fillFactor).load(TpchSchema.definition(table), rows(table),
                done -> progress.update(table.getTableName(), done, expected));
    }

    /** The generated rows of one table, in generation order. */
    public <E extends TpchEntity> Iterator<Object[]> rows(TpchTable<E> table) {
        List<TpchColumn<E>> columns = table.getColumns();
        Iterator<E> it = table.createGenerator(scaleFactor, 1, 1).iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Object[] next() {
                return TpchSchema.row(columns, it.next());
            }
        };
    }

    /** Row counts from the TPC-H specification (lineitem is approximate). */
    public long expectedRows(String table) {
        return switch (table) {
            case "region" -> 5;
            case "nation" -> 25;
            case "supplier" -> (long) (10_000 * scaleFactor);
            case "customer" -> (long) (150_000 * scaleFactor);
            case "part" -> (long) (200_000 * scaleFactor);
            case "partsupp" -> (long) (800_000 * scaleFactor);
            case "orders" -> (long) (1_500_000 * scaleFactor);
            case "lineitem" -> (long) (6_000_000 * scaleFactor);
            default -> 0;
        };
    }

    private static void prepare(Path dir, boolean replace) throws IOException {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(dir + " exists and is not a directory");
            }
            boolean empty;
            try (Stream<Path> s = Files.list(dir)) {
                empty = s.findAny().isEmpty();
            }
            if (!empty) {
                if (!replace) {
                    throw new IllegalArgumentException(dir + " is not empty" + (StoreManifest.exists(dir)
                            ? " (it holds a store)" : "") + "; pass --replace to overwrite it");
                }
                Directories.deleteRecursively(dir);
            }
        }
        Directories.createPrivate(dir);
    }
}
