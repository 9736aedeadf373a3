package org.oooengine.hive.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.sql.exec.TableReader;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.mapreduce.FileFacts;
import org.oooengine.mapreduce.FileSource;

/**
 * Reads tables held in files: by default the one location a table's {@code storage} names, in
 * the layout its properties give ({@link FileLayout#fromProperties}); a catalog that knows more
 * (a partitioned table's partitions) supplies the parts to read instead. It reads them here, one
 * file at a time, or tells a MapReduce job where they are ({@link #sources}).
 */
public final class FileTableReader implements TableReader {
    private static final Logger LOG = LogManager.getLogger(FileTableReader.class);
    /** Row counts of this many files at most are kept, the least recently used forgotten first. */
    private static final int COUNTED_FILES = 100_000;

    private final Configuration conf;
    private final Function<TableInfo, List<FilePart>> parts;
    private final FileAccess access;
    private final Map<FileKey, FileFacts> fileFacts = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<FileKey, FileFacts> eldest) {
            return size() > COUNTED_FILES;
        }
    };

    /** Reads each table from its storage location, any file there. */
    public FileTableReader(Configuration conf) {
        this(conf, FileTableReader::wholeTable, FileAccess.ANY);
    }

    /** Reads each table from the parts {@code parts} lists for it, the files {@code access} allows. */
    public FileTableReader(Configuration conf, Function<TableInfo, List<FilePart>> parts, FileAccess access) {
        this.conf = conf;
        this.parts = parts;
        this.access = access;
    }

    /** The data files of {@code part} of table {@code name}, each allowed to be read, with their lengths. */
    private List<FileStatus> allowedFiles(TableInfo table, String name, FilePart part) {
        try {
            List<FileStatus> files = TableFiles.statuses(qualified(table, part.location()).toString(), conf);
            files.forEach(f -> access.check(name, f.getPath()));
            return files;
        } catch (TableFileException e) {
            throw new SqlException(SqlException.GENERAL, "table " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * How many rows the table's files hold, for the optimizer: the ORC and Parquet footers' counts,
     * a text file's estimated from its first lines; each file's count kept while its length and
     * modification time stay. Empty when the files cannot be listed or a footer read (the scan
     * then says why).
     */
    public OptionalLong rows(TableInfo table) {
        Facts facts = facts(table);
        return facts == null ? OptionalLong.empty() : OptionalLong.of(facts.rows());
    }

    /**
     * What the table's files say of its rows, for the optimizer: their count ({@link #rows}) and,
     * per table column, the least and greatest stored value (integers, dates as epoch days,
     * unscaled decimals) where every ORC or Parquet footer gives it (null otherwise). Null when
     * the files cannot be listed or a footer read.
     */
    public Facts facts(TableInfo table) {
        String name = table.database() + "." + table.name();
        List<DataType> types = table.columns().stream().map(c -> storedOrNull(c.type())).toList();
        try {
            long rows = 0;
            long files = 0;
            long bytes = 0;
            long[][] ranges = new long[types.size()][];
            boolean[] unbounded = new boolean[types.size()];
            FileOrder order = new FileOrder(types.size());
            for (FilePart part : parts.apply(table)) {
                String format = SplitPlanner.layout(part.layout()).format();
                for (FileStatus f : allowedFiles(table, name, part)) {
                    FileFacts file = facts(f, format);
                    rows += file.rows();
                    files++;
                    bytes += f.getLen();
                    for (int c = 0; c < table.columns().size() - part.partitionValues().size(); c++) {
                        String column = table.columns().get(c).name();
                        long[] r = file.rows() == 0 ? null : range(file, format, c, column, types.get(c));
                        if (r == null) {
                            unbounded[c] |= file.rows() > 0;
                        } else {
                            ranges[c] = ranges[c] == null ? r
                                    : new long[] {Math.min(ranges[c][0], r[0]), Math.max(ranges[c][1], r[1])};
                        }
                        if (file.rows() > 0) {
                            order.add(c, file.ordered().stream().anyMatch(column::equalsIgnoreCase) ? r : null);
                        }
                    }
                    for (int c = table.columns().size() - part.partitionValues().size(); c < types.size(); c++) {
                        order.add(c, null); // a partition column: its values are not in the files
                    }
                }
            }
            for (int c = 0; c < ranges.length; c++) {
                if (unbounded[c]) {
                    ranges[c] = null;
                }
            }
            return new Facts(rows, files, bytes, ranges, order.ordered());
        } catch (IOException | RuntimeException e) {
            LOG.debug("no row count of {}: {}", name, e.getMessage());
            return null;
        }
    }

    private static DataType storedOrNull(SqlType type) {
        try {
            return type.storedType();
        } catch (RuntimeException notStored) {
            return null;
        }
    }

    /**
     * What a table's files say of it: their rows, their bytes, in {@code ranges[c]} column c's
     * least and greatest value, or null; and in {@code ordered[c]} whether the files hold column c
     * in order ({@link FileOrder}), so that each split reads a range of its values.
     */
    public record Facts(long rows, long files, long bytes, long[][] ranges, boolean[] ordered) {
    }

    /**
     * Whether a table's files hold each column in order: every file that has rows holds it in
     * order in its row groups (its footer says so, {@link FileFacts#ordered}), and the files'
     * ranges, taken from the least, do not overlap but where one ends as the next begins.
     */
    private static final class FileOrder {
        private final List<List<long[]>> ranges = new ArrayList<>();
        private final boolean[] unordered;

        FileOrder(int columns) {
            unordered = new boolean[columns];
            for (int c = 0; c < columns; c++) {
                ranges.add(new ArrayList<>());
            }
        }

        /** A file with rows holds column {@code c} in order over {@code range}; null: not in order. */
        void add(int c, long[] range) {
            if (range == null) {
                unordered[c] = true;
            } else {
                ranges.get(c).add(range);
            }
        }

        boolean[] ordered() {
            boolean[] ordered = new boolean[unordered.length];
            for (int c = 0; c < ordered.length; c++) {
                List<long[]> files = new ArrayList<>(ranges.get(c));
                files.sort(java.util.Comparator.comparingLong(r -> r[0]));
                ordered[c] = !unordered[c] && !files.isEmpty();
                for (int i = 1; i < files.size() && ordered[c]; i++) {
                    ordered[c] = files.get(i - 1)[1] <= files.get(i)[0];
                }
            }
            return ordered;
        }
    }

    private FileFacts facts(FileStatus f, String format) throws IOException {
        FileKey key = new FileKey(f.getPath().toString(), f.getLen(), f.getModificationTime());
        FileFacts known;
        synchronized (fileFacts) {
            known = fileFacts.get(key);
        }
        if (known == null) {
            known = FileFacts.of(f, format, conf);
            synchronized (fileFacts) {
                fileFacts.put(key, known);
            }
        }
        return known;
    }

    /**
     * Table column {@code c}'s range in {@code file}, in the stored form of {@code type}: a
     * Parquet file's column found by name, as the scan finds it, an ORC file's by position; null
     * when the file gives none of a kind {@code type} holds.
     */
    private static long[] range(FileFacts file, String format, int c, String name, DataType type) {
        boolean byPosition = format.equals("orc");
        FileFacts.Range r = file.ranges().stream()
                .filter(x -> byPosition ? x.position() == c : x.column().equalsIgnoreCase(name)).findFirst().orElse(null);
        if (r == null || type == null) {
            return null;
        }
        return r.asStored(type);
    }

    private record FileKey(String path, long length, long modified) {
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

    /** The stored types of the table's columns, partition columns last; refuses a column no stored type holds. */
    public static List<DataType> storedTypes(TableInfo table) {
        String name = table.database() + "." + table.name();
        return fileSchema(name, table, table.columns().size()).columns().stream().map(Column::type).toList();
    }

    /**
     * Where a job finds the table's rows: the files of each part, with their layout and the part's
     * partition values. Locations are qualified with this reader's file system settings, so that
     * a job configured otherwise reads the same files.
     */
    public List<FileSource> sources(TableInfo table) {
        List<FileSource> sources = new ArrayList<>();
        String name = table.database() + "." + table.name();
        for (FilePart part : parts.apply(table)) {
            allowedFiles(table, name, part);
            int stored = table.columns().size() - part.partitionValues().size();
            List<Object> partitionValues = new ArrayList<>();
            for (int p = 0; p < part.partitionValues().size(); p++) {
                partitionValues.add(table.columns().get(stored + p).type().toStored(part.partitionValues().get(p)));
            }
            FileLayout layout = part.layout();
            sources.add(new FileSource(qualified(table, part.location()), layout.format(), layout.fieldDelimiter(),
                    layout.nullText(), partitionValues));
        }
        return sources;
    }

    private Path qualified(TableInfo table, String location) {
        Path path = new Path(location);
        try {
            return path.getFileSystem(conf).makeQualified(path);
        } catch (IOException | IllegalArgumentException e) {
            throw new SqlException(SqlException.GENERAL, "table " + table.database() + "." + table.name()
                    + ": no file system for " + location + ": " + e.getMessage(), e);
        }
    }

    /**
     * The table's files as the nodes read them when {@code condition} (over the table's columns;
     * null: none) filters its rows: the parts whose partition values it may keep, cut into splits,
     * each assigned to one of {@code nodes} ({@link SplitPlanner}). Fails naming the table and the
     * file that cannot be listed or may not be read.
     */
    public FileReads.Scan onNodes(TableInfo table, List<ClusterSpec.NodeSpec> nodes, Expr condition,
                                  SplitScheduling scheduling) {
        return planned(table, nodes, condition, scheduling).scan().scheduled(scheduling.pattern());
    }

    /**
     * As {@link #onNodes}, each split with the range of column {@code rangeColumn}'s values it
     * reads ({@link FileFacts#splitRange}; unknown for a file not in Parquet), and read on the node
     * it is assigned to: a join whose build rows are routed by that column's ranges sends each
     * only to the nodes whose splits may hold its key, so no other node may read them.
     */
    public FileReads.Scan onNodesByRanges(TableInfo table, List<ClusterSpec.NodeSpec> nodes, Expr condition,
                                          SplitScheduling scheduling, int rangeColumn) {
        FileReads.Scan scan = planned(table, nodes, condition, scheduling).scan();
        List<FileReads.Split> ranged = new ArrayList<>();
        List<FileReads.KeyRange> ranges = splitRanges(table, scan, rangeColumn);
        for (int i = 0; i < ranges.size(); i++) {
            FileReads.Split split = scan.splits().get(i);
            ranged.add(ranges.get(i) == null ? split : split.withKeys(ranges.get(i)));
        }
        return new FileReads.Scan(scan.schema(), scan.fileColumns(), ranged, scan.id(), FileReads.Scheduling.LOCAL);
    }

    /**
     * A table in files read beside another in slices cut alike: where {@code condition} (over its
     * columns; null: none) keeps its rows, in slices of column {@code sliceColumn}'s values.
     */
    public record SlicedAlike(TableInfo table, Expr condition, int sliceColumn) {
    }

    /**
     * As {@link #onNodes}, the nodes each reading a slice of column {@code sliceColumn}'s values
     * ({@link KeySlices}), so that all rows of a value are read on one node; each split with the
     * range of column {@code rangeColumn}'s values it reads where that is not -1, as
     * {@link #onNodesByRanges} gives them. Each of {@code alike}'s tables is read in the same
     * slices, cut where {@code table}'s splits' values start, so that a value's rows of every
     * table are read on one node (a join of them runs there). The scans by storage name.
     */
    public Map<String, FileReads.Scan> onNodesBySlices(TableInfo table, List<ClusterSpec.NodeSpec> nodes, Expr condition,
                                                       int sliceColumn, int rangeColumn, List<SlicedAlike> alike) {
        FileReads.Scan scan = planned(table, nodes, condition, SplitScheduling.DEFAULT).scan();
        List<FileReads.KeyRange> ranges = splitRanges(table, scan, sliceColumn);
        List<FileReads.KeyRange> keys = rangeColumn < 0 ? null
                : rangeColumn == sliceColumn ? ranges : splitRanges(table, scan, rangeColumn);
        List<FileReads.Split> withKeys = new ArrayList<>();
        for (int i = 0; i < scan.splits().size(); i++) {
            FileReads.Split split = scan.splits().get(i);
            withKeys.add(keys == null || keys.get(i) == null ? split : split.withKeys(keys.get(i)));
        }
        List<String> readers = nodes.stream().map(ClusterSpec.NodeSpec::id).toList();
        KeySlices slices = KeySlices.cut(withKeys, ranges, readers.size());
        Map<String, FileReads.Scan> scans = new LinkedHashMap<>();
        scans.put(table.storage(), new FileReads.Scan(scan.schema(), scan.fileColumns(),
                slices.assign(withKeys, ranges, readers, sliceColumn), scan.id(), FileReads.Scheduling.LOCAL));
        for (SlicedAlike other : alike) {
            FileReads.Scan read = planned(other.table(), nodes, other.condition(), SplitScheduling.DEFAULT).scan();
            List<FileReads.KeyRange> otherRanges = splitRanges(other.table(), read, other.sliceColumn());
            scans.put(other.table().storage(), new FileReads.Scan(read.schema(), read.fileColumns(),
                    slices.assign(read.splits(), otherRanges, readers, other.sliceColumn()), read.id(),
                    FileReads.Scheduling.LOCAL));
        }
        return scans;
    }

    /**
     * The range of column {@code column}'s values each of the scan's splits reads, from the
     * footers ({@link FileFacts#splitRange}): null where unknown (a file not in Parquet, or a row
     * group that does not say); fails naming the table when a footer cannot be read.
     */
    private List<FileReads.KeyRange> splitRanges(TableInfo table, FileReads.Scan scan, int column) {
        DataType type = scan.schema().columns().get(column).type();
        String name = scan.schema().columns().get(column).name();
        Map<String, FileStatus> statuses = new HashMap<>();
        List<FileReads.KeyRange> ranges = new ArrayList<>();
        try {
            for (FileReads.Split split : scan.splits()) {
                long[] r = null;
                if (split.layout().format().equals("parquet") && column < scan.fileColumns()) {
                    Path path = new Path(split.path());
                    FileStatus status = statuses.get(split.path());
                    if (status == null) {
                        status = path.getFileSystem(conf).getFileStatus(path);
                        statuses.put(split.path(), status);
                    }
                    r = FileFacts.splitRange(status, conf, split.start(), split.length(), name, type);
                }
                ranges.add(r == null ? null : new FileReads.KeyRange(r[0], r[1]));
            }
        } catch (IOException | RuntimeException e) { // parquet-mr's footer errors among them
            throw new SqlException(SqlException.GENERAL, "table " + table.database() + "." + table.name()
                    + ": cannot read the footers of its files: " + e.getMessage(), e);
        }
        return ranges;
    }

    /** A scan's files, and how many partitions it keeps of how many (1 of 1: a table not partitioned). */
    public record Planned(FileReads.Scan scan, int partitionsKept, int partitions) {
        /**
         * What EXPLAIN says of it: the partitions, files and bytes kept of those the table holds
         * ({@code all}: its files' facts, null where they cannot be told), the splits they are cut into.
         */
        public String describe(Facts all) {
            long files = scan.splits().stream().map(FileReads.Split::path).distinct().count();
            String kept = partitions == 1 && scan.schema().size() == scan.fileColumns() ? ""
                    : String.format(java.util.Locale.ROOT, "%,d of %,d partitions, ", partitionsKept, partitions);
            String bytes = org.oooengine.core.units.Sizes.readable(scan.bytes());
            if (all == null || all.files() == files) {
                return String.format(java.util.Locale.ROOT, "%s%,d files, %,d splits, %s", kept, files,
                        scan.splits().size(), bytes);
            }
            return String.format(java.util.Locale.ROOT, "%s%,d of %,d files, %,d splits, %s of %s", kept, files,
                    all.files(), scan.splits().size(), bytes, org.oooengine.core.units.Sizes.readable(all.bytes()));
        }
    }

    /** As {@link #onNodes}, with how many partitions the condition kept. */
    public Planned planned(TableInfo table, List<ClusterSpec.NodeSpec> nodes, Expr condition, SplitScheduling scheduling) {
        String name = table.database() + "." + table.name();
        List<Column> columns = new ArrayList<>();
        List<DataType> types = storedTypes(table);
        for (int c = 0; c < types.size(); c++) {
            columns.add(new Column(table.columns().get(c).name(), types.get(c)));
        }
        int keys = PartitionDirectories.keys(table).size();
        int fileColumns = table.columns().size() - keys;
        PartitionFilter filter = PartitionFilter.of(table, keys, condition);
        List<FilePart> all = parts.apply(table);
        List<SplitPlanner.PartFiles> files = new ArrayList<>();
        for (FilePart part : all) {
            if (part.partitionValues().size() != keys) {
                throw new SqlException(SqlException.GENERAL, "table " + name + ": part " + part.location() + " has "
                        + part.partitionValues().size() + " partition values, the table " + keys + " partition keys");
            }
            if (!filter.keeps(part)) {
                continue;
            }
            List<Object> stored = new ArrayList<>();
            for (int p = 0; p < keys; p++) {
                stored.add(table.columns().get(fileColumns + p).type().toStored(part.partitionValues().get(p)));
            }
            files.add(new SplitPlanner.PartFiles(allowedFiles(table, name, part), SplitPlanner.layout(part.layout()), stored));
        }
        try {
            FileReads.Scan scan = new FileReads.Scan(new Schema(columns), fileColumns,
                    new SplitPlanner(conf).splits(files, nodes, scheduling));
            return new Planned(scan, files.size(), all.size());
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, "table " + name + ": cannot cut its files into splits: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.database() + "." + table.name();
        for (FilePart part : parts.apply(table)) {
            int stored = table.columns().size() - part.partitionValues().size();
            Schema schema = fileSchema(name, table, stored);
            SqlType[] types = schema.columns().stream().map(c -> SqlType.of(c.type())).toArray(SqlType[]::new);
            try {
                for (FileStatus file : allowedFiles(table, name, part)) {
                    TableFiles.read(file.getPath().toString(), part.layout(), schema, conf, row -> {
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
                }
            } catch (TableFileException e) {
                throw new SqlException(SqlException.GENERAL, "table " + name + ": " + e.getMessage(), e);
            }
        }
        cancel.check();
    }

    /** The table's first {@code count} columns, as the files hold them. */
    static Schema fileSchema(String name, TableInfo table, int count) {
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < count; c++) {
            var column = table.columns().get(c);
            if (column.type().isComplex()) { // no file format here reads them
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + name + ", column " + column.name()
                        + ": type " + column.type() + " cannot be stored");
            }
            try {
                columns.add(new Column(column.name(), column.type().storedType()));
            } catch (SqlException e) {
                throw new SqlException(SqlException.NOT_SUPPORTED, "table " + name + ", column " + column.name()
                        + ": " + e.getMessage());
            }
        }
        return new Schema(columns);
    }
}
