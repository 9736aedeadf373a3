package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.StripeStatistics;
import org.apache.orc.TypeDescription;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.SplitReader;
import org.oooengine.core.fragment.ColumnRanges;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.fragment.Pipeline;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.vector.Batch;
import org.oooengine.core.vector.StoredVectors;
import org.oooengine.core.vector.Vector;

/**
 * Reads splits of warehouse files on a node through Hadoop's {@code FileSystem} (HDFS, local
 * files, any scheme on the class path): Hive text a line at a time, as Hadoop's
 * {@link LineRecordReader} cuts a file's lines among its splits (compressed files whole); ORC
 * the stripes that start in the split and Parquet the row groups whose middle lies in it
 * ({@link ParquetColumns}), decoding only the columns wanted.
 */
public final class HadoopSplitReader implements SplitReader {
    /** Loading Hadoop's default resources takes a while: once per node. */
    private final Configuration conf;

    /** The reader a node finds on its class path, with Hadoop's default settings. */
    public HadoopSplitReader() {
        this(new Configuration());
    }

    /** Reads files as {@code conf} says (which file systems, their settings). */
    public HadoopSplitReader(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public long read(FileReads.Split split, Schema fileSchema, boolean[] wanted, Predicate<List<Object[]>> page) {
        List<DataType> types = fileSchema.columns().stream().map(c -> c.type()).toList();
        Rows rows = new Rows(types.size(), split.partitionValues(), page);
        if (split.layout().format().equals("text")) {
            return counted(split, () -> readText(split, types, rows));
        }
        int width = types.size() + split.partitionValues().size();
        // the columnar formats decode into vectors: their rows are the vectors' values
        long bytes = readBatches(split, fileSchema, wanted, GroupFilter.NONE, batch -> {
            for (Object[] row : StoredVectors.rows(batch, types, width)) {
                if (!rows.add(row)) {
                    return false;
                }
            }
            return true;
        });
        rows.flush();
        return bytes;
    }

    @Override
    public long readBatches(FileReads.Split split, Schema fileSchema, boolean[] wanted, GroupFilter skip,
                            Predicate<Batch> batches) {
        List<DataType> types = fileSchema.columns().stream().map(c -> c.type()).toList();
        return switch (split.layout().format()) {
            case "orc" -> counted(split, () -> readOrc(split, types, wanted, skip, batches));
            case "parquet" -> counted(split, () -> new ParquetColumns(new Path(split.path()), fileSchema.names(), types,
                    wanted).read(conf, split.start(), split.length(), skip, batches));
            default -> SplitReader.super.readBatches(split, fileSchema, wanted, skip, batches);
        };
    }

    /**
     * The file's length, time of last modification, owner, group and permissions, as its file
     * system gives them: what was kept of a file whose permissions changed is not read again; and
     * what tells one file from another written in its place with the same length and time (a copy
     * that keeps times): HDFS's file id, an object store's etag, a local file's inode and change time.
     */
    @Override
    public String version(FileReads.Split split) {
        Path path = new Path(split.path());
        try {
            org.apache.hadoop.fs.FileSystem fs = path.getFileSystem(conf);
            java.io.File local = fs instanceof org.apache.hadoop.fs.LocalFileSystem l ? l.pathToFile(path)
                    : fs instanceof org.apache.hadoop.fs.RawLocalFileSystem r ? r.pathToFile(path) : null;
            if (local != null) {
                return localVersion(local.toPath());
            }
            org.apache.hadoop.fs.FileStatus status = fs.getFileStatus(path);
            String identity = status instanceof org.apache.hadoop.hdfs.protocol.HdfsFileStatus hdfs ? "id " + hdfs.getFileId()
                    : status instanceof org.apache.hadoop.fs.EtagSource tagged ? "etag " + tagged.getEtag() : "";
            return status.getLen() + "@" + status.getModificationTime() + " " + status.getOwner() + ":"
                    + status.getGroup() + " " + status.getPermission() + " " + identity;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + split + ": " + e.getMessage(), e);
        }
    }

    /**
     * A local file's version read in one stat: Hadoop's local file system finds a file's owner and
     * permissions by running {@code ls} (3 ms a file, without Hadoop's native library).
     */
    private static String localVersion(java.nio.file.Path file) throws IOException {
        try {
            java.util.Map<String, Object> a = java.nio.file.Files.readAttributes(file,
                    "unix:size,lastModifiedTime,owner,group,permissions,ino,ctime");
            @SuppressWarnings("unchecked")
            var permissions = (java.util.Set<java.nio.file.attribute.PosixFilePermission>) a.get("permissions");
            return a.get("size") + "@" + ((java.nio.file.attribute.FileTime) a.get("lastModifiedTime")).toMillis() + " "
                    + ((java.security.Principal) a.get("owner")).getName() + ":" + ((java.security.Principal) a.get("group")).getName()
                    + " " + java.nio.file.attribute.PosixFilePermissions.toString(permissions) + " inode " + a.get("ino")
                    + " changed " + a.get("ctime");
        } catch (UnsupportedOperationException | IllegalArgumentException notUnix) {
            java.nio.file.attribute.BasicFileAttributes a = java.nio.file.Files.readAttributes(file,
                    java.nio.file.attribute.BasicFileAttributes.class);
            return a.size() + "@" + a.lastModifiedTime().toMillis() + " key " + a.fileKey();
        }
    }

    /** What reading a split does. */
    private interface SplitRead {
        void run() throws IOException;
    }

    /** Reads a split; the bytes read from its file system, as Hadoop counts them for this thread. */
    private static long counted(FileReads.Split split, SplitRead read) {
        String scheme = new Path(split.path()).toUri().getScheme();
        long before = bytesReadHere(scheme);
        try {
            read.run();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + split + ": " + e.getMessage(), e);
        }
        return bytesReadHere(scheme) - before;
    }

    /** The bytes this thread has read from file systems of {@code scheme}, as Hadoop counts them. */
    @SuppressWarnings("deprecation") // the per-thread figures are only on the per-scheme statistics
    private static long bytesReadHere(String scheme) {
        long bytes = 0;
        for (org.apache.hadoop.fs.FileSystem.Statistics s : org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
            if (s.getScheme().equals(scheme)) {
                bytes += s.getThreadStatistics().getBytesRead();
            }
        }
        return bytes;
    }

    private void readText(FileReads.Split split, List<DataType> types, Rows rows) throws IOException {
        HiveText text = new HiveText(types, split.layout().fieldDelimiter(), split.layout().nullText());
        try (LineRecordReader lines = new LineRecordReader()) {
            lines.initialize(new FileSplit(new Path(split.path()), split.start(), split.length(), new String[0]),
                    new TaskAttemptContextImpl(conf, new TaskAttemptID()));
            while (lines.nextKeyValue()) {
                Object[] fileRow = text.parse(lines.getCurrentValue().toString(), split.path() + " at byte "
                        + lines.getCurrentKey().get());
                if (!rows.add(fileRow)) {
                    return;
                }
            }
        } catch (IllegalArgumentException badLine) {
            throw new IllegalStateException(badLine.getMessage(), badLine);
        }
        rows.flush();
    }

    private void readOrc(FileReads.Split split, List<DataType> types, boolean[] wanted, GroupFilter skip,
                         Predicate<Batch> batches) throws IOException {
        Path path = new Path(split.path());
        try (Reader reader = OrcFile.createReader(path, OrcFile.readerOptions(conf))) {
            TypeDescription schema = reader.getSchema();
            String mismatch = OrcRows.mismatch(schema, types);
            if (mismatch != null) {
                throw new IllegalStateException(split.path() + " cannot be read as the table's files: " + mismatch);
            }
            boolean[] include = new boolean[schema.getMaximumId() + 1];
            include[0] = true;
            for (int c = 0; c < types.size(); c++) {
                if (wanted[c]) {
                    TypeDescription column = schema.getChildren().get(c);
                    for (int id = column.getId(); id <= column.getMaximumId(); id++) {
                        include[id] = true;
                    }
                }
            }
            SearchArgument equalities = OrcSearchArguments.of(schema, types, skip.equalities());
            String[] names = schema.getFieldNames().toArray(String[]::new);
            VectorizedRowBatch batch = schema.createRowBatch(Pipeline.BATCH_ROWS);
            List<StripeInformation> stripes = reader.getStripes();
            List<StripeStatistics> statistics = reader.getStripeStatistics();
            for (int i = 0; i < stripes.size(); i++) {
                StripeInformation stripe = stripes.get(i);
                // the stripes that start in the split, but those the statistics show no row of passes
                if (stripe.getOffset() < split.start() || stripe.getOffset() >= split.start() + split.length()
                        || i < statistics.size() && skip.test(stripeRanges(schema, statistics.get(i), types))) {
                    continue;
                }
                Reader.Options options = reader.options().range(stripe.getOffset(), stripe.getLength()).include(include);
                if (equalities != null) {
                    options.searchArgument(equalities, names);
                }
                try (RecordReader rows = reader.rows(options)) {
                    while (rows.nextBatch(batch)) {
                        Vector[] columns = new Vector[types.size()];
                        for (int c = 0; c < types.size(); c++) {
                            if (wanted[c]) {
                                columns[c] = OrcRows.column(batch.cols[c], batch.size, types.get(c));
                            }
                        }
                        if (!batches.test(Batch.of(columns, batch.size))) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /** The ranges of the table's columns in a stripe, as its statistics give them (ORC's columns are the table's by position). */
    private static ColumnRanges stripeRanges(TypeDescription schema, StripeStatistics stripe, List<DataType> types) {
        FileFacts.Range[] byPosition = new FileFacts.Range[types.size()];
        for (FileFacts.Range r : FileFacts.orcRanges(schema, stripe.getColumnStatistics())) {
            if (r.position() < byPosition.length) {
                byPosition[r.position()] = r;
            }
        }
        return FileFacts.asStored(java.util.Arrays.asList(byPosition), types);
    }

    /** Rows handed on a page at a time, each with the split's partition values after its file columns. */
    private static final class Rows {
        private final int fileColumns;
        private final List<Object> partitionValues;
        private final Predicate<List<Object[]>> page;
        private List<Object[]> pending = new ArrayList<>(Pipeline.BATCH_ROWS);
        private boolean stopped;

        Rows(int fileColumns, List<Object> partitionValues, Predicate<List<Object[]>> page) {
            this.fileColumns = fileColumns;
            this.partitionValues = partitionValues;
            this.page = page;
        }

        /** Adds a row of the file's columns (or already as wide as the table's); false: no more are wanted. */
        boolean add(Object[] row) {
            Object[] full = row.length == fileColumns + partitionValues.size() ? row
                    : java.util.Arrays.copyOf(row, fileColumns + partitionValues.size());
            for (int p = 0; p < partitionValues.size(); p++) {
                full[fileColumns + p] = partitionValues.get(p);
            }
            pending.add(full);
            if (pending.size() < Pipeline.BATCH_ROWS) {
                return true;
            }
            List<Object[]> ready = pending;
            pending = new ArrayList<>(Pipeline.BATCH_ROWS);
            stopped = !page.test(ready);
            return !stopped;
        }

        /** Hands on the rows left, unless no more were wanted. */
        void flush() {
            if (!stopped && !pending.isEmpty()) {
                page.test(pending);
                pending = new ArrayList<>();
            }
        }
    }
}
