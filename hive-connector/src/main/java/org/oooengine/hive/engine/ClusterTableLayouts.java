package org.oooengine.hive.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.ClusterManifest;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.store.StoreManifest;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.cost.TableFacts;
import org.oooengine.core.settings.TableProperties;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.hive.files.FileTableStatistics;
import org.oooengine.optimizer.rel.TableLayouts;
import org.oooengine.optimizer.snapshot.ClusterSnapshot;

/**
 * The cluster's tables as a statement's snapshot of the nodes' manifests describes them; a table
 * held in files as its files' footers do (row counts, column ranges), its bytes estimated from its
 * column types (compressed files say little of the rows' widths).
 */
final class ClusterTableLayouts implements TableLayouts {
    private final ClusterSnapshot snapshot;
    private final Optional<FileTableReader> files;
    /** A table held in files is read of once per statement: the planner asks often, and each time its files are listed. */
    private final Map<TableInfo, Optional<FileTableReader.Facts>> fileFacts = new HashMap<>();
    /**
     * A column's distinct values, estimated once per statement: the join search asks for them
     * hundreds of times, and each estimate decodes the column's HyperLogLog sketch.
     */
    private final Map<List<String>, Double> distinct = new java.util.concurrent.ConcurrentHashMap<>();

    /** The cluster's tables as {@code snapshot} has them; those held in files counted by {@code files}. */
    ClusterTableLayouts(ClusterSnapshot snapshot, Optional<FileTableReader> files) {
        this.snapshot = snapshot;
        this.files = files;
    }

    @Override
    public OptionalLong rows(TableInfo table) {
        if (FileTableReader.holds(table)) {
            return fileFacts(table).map(f -> analyzedRows(table, f).orElse(f.rows())).map(OptionalLong::of)
                    .orElse(OptionalLong.empty());
        }
        return meta(table).map(m -> OptionalLong.of(m.rows())).orElse(OptionalLong.empty());
    }

    @Override
    public OptionalLong bytes(TableInfo table) {
        if (FileTableReader.holds(table)) {
            OptionalLong rows = rows(table);
            return rows.isPresent() ? OptionalLong.of(rows.getAsLong() * storedRowBytes(table)) : OptionalLong.empty();
        }
        return meta(table).map(m -> OptionalLong.of(m.dataBytes())).orElse(OptionalLong.empty());
    }

    /**
     * The bytes a row of a table held in files takes once read, estimated from its column types —
     * strings at half their declared length, {@value #STRING_BYTES} bytes when it has none — since
     * compressed files say little of it. Without it the planner would size no join side over files
     * and place their joins on the coordinator.
     */
    static long storedRowBytes(TableInfo table) {
        long bytes = 0;
        for (var c : table.columns()) {
            bytes += switch (c.type().kind()) {
                case BOOLEAN, TINYINT -> 1;
                case SMALLINT -> 2;
                case INT, DATE, FLOAT -> 4;
                case CHAR, VARCHAR -> c.type().precision() > 0 ? Math.max(1, c.type().precision() / 2) : STRING_BYTES;
                case STRING -> STRING_BYTES;
                default -> 8;
            };
        }
        return Math.max(1, bytes);
    }

    private static final int STRING_BYTES = 16;

    /**
     * The rows ANALYZE TABLE counted in a text table, scaled by how its files' bytes changed since:
     * a text file's own count is estimated from a sample of its lines. ORC and Parquet footers
     * count exactly, and are always as current as the files.
     */
    private static Optional<Long> analyzedRows(TableInfo table, FileTableReader.Facts facts) {
        if (!"text".equals(table.properties().get(TableProperties.FILE_FORMAT.name()))) {
            return Optional.empty();
        }
        OptionalLong rows = FileTableStatistics.rows(table, facts.bytes());
        return rows.isPresent() ? Optional.of(rows.getAsLong()) : Optional.empty();
    }

    private Optional<FileTableReader.Facts> fileFacts(TableInfo table) {
        return fileFacts.computeIfAbsent(table, t -> files.map(f -> f.facts(t)));
    }

    @Override
    public long[] range(TableInfo table, int column) {
        if (FileTableReader.holds(table)) {
            return fileFacts(table).map(f -> f.ranges()[column]).orElse(null);
        }
        String name = table.columns().get(column).name();
        return meta(table).map(StoreManifest.TableMeta::columnRanges).map(r -> r.get(name))
                .map(r -> new long[] {r.get(0), r.get(1)}).orElse(null);
    }

    @Override
    public boolean ordered(TableInfo table, int column) {
        return FileTableReader.holds(table) && fileFacts(table).map(f -> f.ordered()[column]).orElse(false);
    }

    @Override
    public int sliceColumn(TableInfo table) {
        if (!FileTableReader.holds(table) || table.reliedKey().isEmpty()) {
            return -1;
        }
        int column = table.indexOf(table.reliedKey().get(0));
        if (column < 0 || column >= table.columns().size() - PartitionDirectories.keys(table).size()) {
            return -1; // a partition column: its values are no file's
        }
        SqlType.Kind kind = table.columns().get(column).type().kind();
        boolean sliceable = kind == SqlType.Kind.INT || kind == SqlType.Kind.BIGINT || kind == SqlType.Kind.DATE;
        return sliceable && ordered(table, column) ? column : -1;
    }

    private Optional<StoreManifest.TableMeta> meta(TableInfo table) {
        if (FileTableReader.holds(table)) {
            return Optional.empty();
        }
        try {
            return snapshot.manifest().table(table.storage()).map(ClusterManifest.Table::meta);
        } catch (ClusterException layoutsDiffer) {
            return Optional.empty(); // the scan names the problem
        }
    }

    @Override
    public double distinct(TableInfo table, int column) {
        if (FileTableReader.holds(table)) {
            return fileDistinct(table, column);
        }
        return distinct.computeIfAbsent(List.of(table.storage(), table.columns().get(column).name()),
                key -> fromStatistics(table, column, TableFacts::distinct, Double.NaN));
    }

    /**
     * A file column's distinct values: as ANALYZE TABLE counted them (never more than the rows the
     * files hold now), or else as its footers bound them: an integer or date column can hold no
     * more than its span. The span is taken only when it is no wider than the rows: the column
     * then repeats its values (a nation key, a foreign key, a date), where a dense domain makes the
     * bound close; a wider span may be a key's, whose count it says little of (TPC-H's l_orderkey
     * spans 6 million values in 6 million rows, and holds 1.5 million).
     */
    private double fileDistinct(TableInfo table, int column) {
        OptionalLong rows = rows(table);
        OptionalDouble analyzed = FileTableStatistics.distinct(table, table.columns().get(column).name());
        if (analyzed.isPresent()) {
            return Math.max(1, rows.isPresent() ? Math.min(analyzed.getAsDouble(), rows.getAsLong()) : analyzed.getAsDouble());
        }
        long[] r = range(table, column);
        if (r == null || rows.isEmpty() || table.columns().get(column).type().kind() == SqlType.Kind.DECIMAL) {
            return Double.NaN;
        }
        double span = (double) r[1] - r[0] + 1;
        return span <= rows.getAsLong() ? Math.max(1, span) : Double.NaN;
    }

    @Override
    public List<String> sample(TableInfo table, int column) {
        return fromStatistics(table, column, TableFacts::sample, List.of());
    }

    /** What {@code read} finds of the column in the table's statistics; {@code none} for a table in files or without them. */
    private <T> T fromStatistics(TableInfo table, int column, BiFunction<TableFacts, String, T> read, T none) {
        if (FileTableReader.holds(table)) {
            return none;
        }
        String name = table.columns().get(column).name();
        return snapshot.facts(table.storage()).map(f -> {
            try {
                return read.apply(f, name);
            } catch (IllegalArgumentException noStatistics) {
                return none;
            }
        }).orElse(none);
    }

    @Override
    public int nodes(TableInfo table) {
        if (FileTableReader.holds(table)) { // every node reads splits of its files
            return rows(table).isPresent() ? Math.max(1, snapshot.spec().nodes().size()) : 1;
        }
        return rows(table).isPresent() ? Math.max(1, snapshot.spec().owners(table.storage()).size()) : 1;
    }

    @Override
    public boolean partitionedAlike(TableInfo a, TableInfo b) {
        return rows(a).isPresent() && rows(b).isPresent() && !a.primaryKey().isEmpty() && !b.primaryKey().isEmpty()
                && snapshot.spec().owners(a.storage()).equals(snapshot.spec().owners(b.storage()));
    }
}
