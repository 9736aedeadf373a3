package org.oooengine.hive.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.cluster.ClusterException;
import org.oooengine.core.cluster.FileOutput;
import org.oooengine.core.cluster.FileWrites;
import org.oooengine.core.cluster.Peers;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.Schema;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * Writes rows into a table held in files, as INSERT INTO and INSERT OVERWRITE do: the nodes
 * write the files side by side ({@link FileWrites}), into a staging directory under the table's
 * location that readers skip (its name starts with a dot). Only once every file is complete are
 * they moved into the table's directories (renames, which HDFS does in its namenode), and for an
 * overwrite the files they replace moved aside, then deleted. A statement that fails or is
 * cancelled on the way moves back what it had moved and deletes its staging directory: the table
 * is left as it was, with no file of the statement behind.
 */
public final class FileTableWriter {
    private static final Logger LOG = LogManager.getLogger(FileTableWriter.class);
    /** A partition's rows go to one file up to this many, then are shared among the nodes. */
    static final int ROWS_PER_FILE = 100_000;
    static final String STAGING_PREFIX = ".ooo-staging-";
    static final String REPLACED_PREFIX = ".ooo-replaced-";

    private final Configuration conf;
    private final Peers peers;
    private final List<String> nodes;
    private final int rowsPerFile;

    /** Writes with the nodes {@code nodes} (at least one) reached through {@code peers}, on the file systems {@code conf} configures. */
    public FileTableWriter(Configuration conf, Peers peers, List<String> nodes) {
        this(conf, peers, nodes, ROWS_PER_FILE);
    }

    /** As above, a partition's rows shared among the nodes once they are more than {@code rowsPerFile}. */
    FileTableWriter(Configuration conf, Peers peers, List<String> nodes, int rowsPerFile) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no node to write files");
        }
        this.conf = conf;
        this.peers = peers;
        this.nodes = List.copyOf(nodes);
        this.rowsPerFile = rowsPerFile;
    }

    /**
     * Writes {@code rows} (stored values of every column of {@code table}, its partition columns
     * last) into the table's files. With {@code overwrite} the files of the table, or of each
     * partition written, are replaced; of a partitioned table also the partition that
     * {@code staticPartition} names in full (its stored values for the leading partition keys),
     * even when no row goes there, as Hive's INSERT OVERWRITE ... PARTITION does.
     */
    public Written insert(TableInfo table, List<Object[]> rows, boolean overwrite, List<Object> staticPartition,
                       BooleanSupplier cancelled) {
        Shape shape = Shape.of(table);
        String name = shape.name();
        List<String> keys = shape.keys();
        int fileColumns = shape.fileColumns();
        Map<String, List<Object[]>> byDirectory = byDirectory(table, keys, shape.schema(), rows);
        if (overwrite && staticPartition.size() == keys.size()) {
            byDirectory.putIfAbsent(PartitionDirectories.directory(keys, shape.partitionColumns(), staticPartition),
                    List.of());
        }
        String statement = UUID.randomUUID().toString().substring(0, 8);
        FileLayout layout = shape.layout();
        Schema fileSchema = shape.fileSchema();
        Map<String, List<Path>> files = new LinkedHashMap<>();
        staged(table, statement, (fs, staging) -> {
            List<Piece> pieces = pieces(byDirectory, staging, statement, SplitPlanner.layout(layout), fileSchema);
            for (Piece p : pieces) {
                fs.mkdirs(new Path(p.target().path()).getParent());
            }
            writeOnNodes(name, pieces, fileColumns, cancelled);
            byDirectory.keySet().forEach(dir -> files.put(dir, new ArrayList<>()));
            pieces.forEach(p -> files.get(p.directory()).add(new Path(p.target().path())));
            return true;
        }, overwrite, files, cancelled);
        LOG.info("wrote {} rows into {} ({} directories)", rows.size(), name, byDirectory.size());
        return new Written(rows.size(), List.copyOf(byDirectory.keySet()));
    }

    /**
     * As {@link #insert}, the rows written by the nodes themselves where {@code nodes} has them
     * write a plan's rows into files ({@link FileOutput}) and returns the records of the files;
     * empty where it returns none (the plan's rows meet on the coordinator), having written nothing.
     */
    public Optional<Written> insertFromNodes(TableInfo table, boolean overwrite, List<Object> staticPartition,
                                             Function<FileOutput, Optional<List<Object[]>>> nodes,
                                             BooleanSupplier cancelled) {
        Shape shape = Shape.of(table);
        String name = shape.name();
        List<String> keys = shape.keys();
        int fileColumns = shape.fileColumns();
        List<Column> partitionColumns = shape.partitionColumns();
        String statement = UUID.randomUUID().toString().substring(0, 8);
        Map<String, List<Path>> files = new LinkedHashMap<>();
        long[] rows = {0};
        boolean ran = staged(table, statement, (fs, staging) -> {
            fs.mkdirs(staging);
            FileOutput output = new FileOutput(staging.toString(), statement, SplitPlanner.layout(shape.layout()),
                    shape.fileSchema(), keys.size());
            Optional<List<Object[]>> records = nodes.apply(output);
            if (records.isEmpty()) {
                return false;
            }
            java.util.Set<Path> seen = new java.util.HashSet<>();
            for (Object[] record : records.get()) {
                Path file = writtenFile(record, keys.size(), fs, staging, statement);
                if (!seen.add(file)) {
                    throw new IllegalStateException("a file named twice in the nodes' records: " + file);
                }
                List<Object> values = new ArrayList<>();
                for (int k = 0; k < keys.size(); k++) {
                    values.add(table.columns().get(fileColumns + k).type().toStored(record[FileOutput.RECORD_COLUMNS + k]));
                }
                String dir = keys.isEmpty() ? "" : PartitionDirectories.directory(keys, partitionColumns, values);
                files.computeIfAbsent(dir, d -> new ArrayList<>()).add(file);
                rows[0] += ((Number) record[1]).longValue();
            }
            if (keys.isEmpty()) {
                files.putIfAbsent("", List.of()); // an overwrite with no row empties the table
            } else if (overwrite && staticPartition.size() == keys.size()) {
                files.putIfAbsent(PartitionDirectories.directory(keys, partitionColumns, staticPartition), List.of());
            }
            return true;
        }, overwrite, files, cancelled);
        if (!ran) {
            return Optional.empty();
        }
        LOG.info("the nodes wrote {} rows into {} ({} files, {} directories)", rows[0], name,
                files.values().stream().mapToInt(List::size).sum(), files.size());
        return Optional.of(new Written(rows[0], List.copyOf(files.keySet())));
    }

    /** Writes a statement's files into a staging directory; true when it wrote (false: nothing was). */
    @FunctionalInterface
    private interface Staging {
        boolean write(FileSystem fs, Path staging) throws IOException;
    }

    /**
     * Has {@code writes} write the statement's files under a staging directory of the table's
     * location, then moves each directory's files of {@code files} (relative to the location) into
     * it, replacing its files where {@code overwrite}; the staging directory is deleted whatever
     * happens. Returns what {@code writes} did.
     */
    private boolean staged(TableInfo table, String statement, Staging writes, boolean overwrite,
                           Map<String, List<Path>> files, BooleanSupplier cancelled) {
        String name = table.database() + "." + table.name();
        Path location = new Path(table.storage());
        Path staging = new Path(location, STAGING_PREFIX + statement);
        try {
            FileSystem fs = location.getFileSystem(conf);
            try {
                if (!writes.write(fs, fs.makeQualified(staging))) {
                    return false;
                }
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("INSERT into " + name + " was cancelled");
                }
                new Commit(fs, location, new Path(location, REPLACED_PREFIX + statement)).run(files, overwrite);
                return true;
            } finally {
                deleteQuietly(fs, staging);
            }
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, "INSERT into " + name + " failed: " + e.getMessage()
                    + "; the table is as it was", e);
        } catch (CancellationException | SqlException e) {
            throw e;
        } catch (RuntimeException e) {
            // a node lost or failing: the cause keeps what the user is told of it (its SQLSTATE too)
            throw new ClusterException(e.getMessage() + "; the table is as it was", e);
        }
    }

    /**
     * The file a node's {@code record} names, checked: a record of the statement's output (a node of
     * an earlier build would send the query's rows instead) for a file of its own in {@code staging},
     * with rows and bytes counted.
     */
    private static Path writtenFile(Object[] record, int partitionKeys, FileSystem fs, Path staging, String statement) {
        if (record.length != FileOutput.RECORD_COLUMNS + partitionKeys || !(record[0] instanceof String path)
                || !(record[1] instanceof Long rows) || rows < 0 || !(record[2] instanceof Long bytes) || bytes < 0) {
            throw new IllegalStateException("a node answered with something else than a record of a file it wrote "
                    + "(is every node of this build?)");
        }
        Path file = fs.makeQualified(new Path(path));
        if (!file.getParent().equals(staging) || !file.getName().startsWith("part-" + statement + "-")) {
            throw new IllegalStateException("a node's record of a file it wrote, " + file + ", is not one of " + staging);
        }
        return file;
    }

    /**
     * How a table's rows lie in its files: its layout, its partition keys, and its stored columns
     * ({@code schema}), those of the files first and the partition columns after them.
     */
    private record Shape(String name, FileLayout layout, List<String> keys, Schema schema, int fileColumns) {
        static Shape of(TableInfo table) {
            String name = table.database() + "." + table.name();
            FileLayout layout = FileLayout.fromProperties(table.properties()).orElseThrow(() -> new SqlException(
                    SqlException.GENERAL, "table " + name + " is not held in files"));
            List<String> keys = PartitionDirectories.keys(table);
            return new Shape(name, layout, keys, FileTableReader.fileSchema(name, table, table.columns().size()),
                    table.columns().size() - keys.size());
        }

        Schema fileSchema() {
            return new Schema(schema.columns().subList(0, fileColumns));
        }

        List<Column> partitionColumns() {
            return schema.columns().subList(fileColumns, schema.size());
        }
    }

    /**
     * What an INSERT wrote: its rows, and the directories it wrote them to, relative to the
     * table's location ({@code k1=v1/k2=v2} of a partitioned table; "" for the location itself).
     */
    public record Written(long rows, List<String> directories) {
    }

    /** The rows for each directory, relative to the location ("" for the location itself), in order of first row. */
    private static Map<String, List<Object[]>> byDirectory(TableInfo table, List<String> keys, Schema schema,
                                                           List<Object[]> rows) {
        Map<String, List<Object[]>> out = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            out.put("", rows);
            return out;
        }
        int first = table.columns().size() - keys.size();
        var partitionColumns = schema.columns().subList(first, schema.size());
        Map<List<Object>, List<Object[]>> byValues = new LinkedHashMap<>();
        for (Object[] row : rows) {
            byValues.computeIfAbsent(Arrays.asList(Arrays.copyOfRange(row, first, row.length)), v -> new ArrayList<>())
                    .add(row);
        }
        byValues.forEach((values, partRows) ->
                out.put(PartitionDirectories.directory(keys, partitionColumns, values), partRows));
        return out;
    }

    /** One file a node writes: rows {@code [from, to)} of a directory's. */
    private record Piece(String node, String directory, FileWrites.Target target, List<Object[]> rows, int from, int to) {
    }

    /** Each directory's rows cut into files of at least {@link #rowsPerFile} rows, at most one per node, spread over the nodes. */
    private List<Piece> pieces(Map<String, List<Object[]>> byDirectory, Path staging, String statement,
                               org.oooengine.core.cluster.FileReads.Layout layout, Schema fileSchema) {
        String suffix = FileOutput.suffix(layout);
        List<Piece> out = new ArrayList<>();
        int next = 0;
        for (Map.Entry<String, List<Object[]>> d : byDirectory.entrySet()) {
            List<Object[]> rows = d.getValue();
            int files = (int) Math.min(nodes.size(), Math.max(1, (rows.size() + rowsPerFile - 1L) / rowsPerFile));
            Path dir = d.getKey().isEmpty() ? staging : new Path(staging, d.getKey());
            for (int f = 0; f < files && !rows.isEmpty(); f++) {
                String file = String.format(Locale.ROOT, "part-%s-%05d%s", statement, out.size(), suffix);
                out.add(new Piece(nodes.get(next++ % nodes.size()), d.getKey(),
                        new FileWrites.Target(new Path(dir, file).toString(), layout, fileSchema), rows,
                        (int) ((long) rows.size() * f / files), (int) ((long) rows.size() * (f + 1) / files)));
            }
        }
        return out;
    }

    /** Each node writes its pieces one after another, all nodes at once; the first failure stops them all. */
    private void writeOnNodes(String table, List<Piece> pieces, int fileColumns, BooleanSupplier cancelled) {
        Map<String, List<Piece>> byNode = new LinkedHashMap<>();
        pieces.forEach(p -> byNode.computeIfAbsent(p.node(), n -> new ArrayList<>()).add(p));
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, byNode.size()), r -> {
            Thread t = new Thread(r, "ooo-file-writes");
            t.setDaemon(true);
            return t;
        });
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        BooleanSupplier stopping = () -> stop.get() || cancelled.getAsBoolean();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (List<Piece> mine : byNode.values()) {
                running.add(threads.submit(() -> {
                    for (Piece p : mine) {
                        write(table, p, fileColumns, stopping);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    stop.set(true);
                    throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("INSERT into " + table + " was interrupted");
        } finally {
            stop.set(true);
            threads.shutdown();
            try {
                // each writer aborts its file on its way out: wait, so that none is left open when staging is deleted
                threads.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void write(String table, Piece p, int fileColumns, BooleanSupplier stopping) {
        try (FileWrites file = FileWrites.open(peers, p.node(), p.target())) {
            for (int i = p.from(); i < p.to(); i++) {
                if ((i & 1023) == 0 && stopping.getAsBoolean()) {
                    throw new CancellationException("INSERT into " + table + " was cancelled");
                }
                Object[] row = p.rows().get(i);
                file.write(row.length == fileColumns ? row : Arrays.copyOf(row, fileColumns));
            }
            file.finish();
        }
    }

    /**
     * Moves the staged files into the table's directories, the files they replace aside first;
     * undoes every move it made when one fails.
     */
    private record Commit(FileSystem fs, Path location, Path replaced) {
        /** Moves each directory's {@code files} (by directory relative to the location) into it. */
        void run(Map<String, List<Path>> files, boolean overwrite) throws IOException {
            List<Path[]> moved = new ArrayList<>();
            try {
                for (Map.Entry<String, List<Path>> d : files.entrySet()) {
                    String dir = d.getKey();
                    Path target = dir.isEmpty() ? location : new Path(location, dir);
                    if (overwrite && fs.exists(target)) {
                        Path aside = dir.isEmpty() ? replaced : new Path(replaced, dir);
                        for (FileStatus old : fs.listStatus(target, FileTableWriter::visible)) {
                            move(old.getPath(), new Path(aside, old.getPath().getName()), moved);
                        }
                    }
                    fs.mkdirs(target); // an overwritten partition that no row goes to stays, empty
                    for (Path file : d.getValue()) {
                        move(file, new Path(target, file.getName()), moved);
                    }
                }
            } catch (IOException | RuntimeException e) {
                for (int i = moved.size() - 1; i >= 0; i--) {
                    try {
                        fs.rename(moved.get(i)[1], moved.get(i)[0]);
                    } catch (IOException undo) {
                        LOG.error("cannot move {} back to {}: {}", moved.get(i)[1], moved.get(i)[0], undo.getMessage());
                    }
                }
                throw e;
            }
            deleteQuietly(fs, replaced);
        }

        private void move(Path from, Path to, List<Path[]> moved) throws IOException {
            fs.mkdirs(to.getParent());
            if (!fs.rename(from, to)) {
                throw new IOException("cannot move " + from + " to " + to);
            }
            moved.add(new Path[] {from, to});
        }
    }

    /** What Hive reads as data: a name not starting with {@code _} or {@code .}. */
    static boolean visible(Path p) {
        return !p.getName().startsWith("_") && !p.getName().startsWith(".");
    }

    private static void deleteQuietly(FileSystem fs, Path dir) {
        try {
            fs.delete(dir, true);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", dir, e.getMessage());
        }
    }
}
