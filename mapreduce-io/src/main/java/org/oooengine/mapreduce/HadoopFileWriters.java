package org.oooengine.mapreduce;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.parquet.hadoop.ParquetWriter;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.RowFileWriters;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * Writes warehouse files on a node through Hadoop's {@code FileSystem}, in the formats
 * {@link HadoopSplitReader} reads: Hive's text format ({@link HiveText}), ORC ({@link OrcRows})
 * and Parquet ({@link ParquetRowWriter}), each as Hive reads it back.
 */
public final class HadoopFileWriters implements RowFileWriters {
    private final Configuration conf;

    /** The writers a node finds on its class path, with Hadoop's default settings. */
    public HadoopFileWriters() {
        this(new Configuration());
    }

    public HadoopFileWriters(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public RowFileWriter create(String path, FileReads.Layout layout, Schema schema) {
        Path file = new Path(path);
        List<DataType> types = schema.columns().stream().map(c -> c.type()).toList();
        try {
            FileSystem fs = new InExistingDirectories(file.getFileSystem(conf));
            RowFileWriter writer = switch (layout.format()) {
                case "text" -> new Text(fs, file, new HiveText(types, layout.fieldDelimiter(), layout.nullText()));
                case "orc" -> new Orc(fs, file, OrcRows.schema(schema.names(), types), types, conf);
                case "parquet" -> new Parquet(fs, file, ParquetRowWriter.open(fs, file, conf, schema.names(), types));
                default -> throw new IllegalStateException("file " + path + ": format " + layout.format()
                        + " is not written on the nodes (text, orc and parquet are)");
            };
            return writer;
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalStateException("cannot create " + path + ": its directory is gone (the statement "
                    + "writing it ended)", e);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void delete(String path) {
        Path file = new Path(path);
        try {
            file.getFileSystem(conf).delete(file, false);
        } catch (IOException | RuntimeException e) {
            // left in the statement's staging directory, which its coordinator deletes
        }
    }

    /** What every format's writer shares: the file, and how a failure names it. */
    private abstract static class FileWriter implements RowFileWriter {
        final FileSystem fs;
        final Path file;

        FileWriter(FileSystem fs, Path file) {
            this.fs = fs;
            this.file = file;
        }

        abstract void add(List<Object[]> rows) throws IOException;

        abstract void closeFile() throws IOException;

        @Override
        public void write(List<Object[]> rows) {
            try {
                add(rows);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        public long finish() {
            try {
                closeFile();
                return fs.getFileStatus(file).getLen();
            } catch (IOException e) {
                throw new IllegalStateException("cannot complete " + file + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void abort() {
            try {
                closeFile();
            } catch (IOException | RuntimeException e) {
                // what it holds is deleted below
            }
            try {
                fs.delete(file, false);
            } catch (IOException e) {
                // left in the statement's staging directory, which its coordinator deletes
            }
        }
    }

    private static final class Text extends FileWriter {
        private final BufferedWriter out;
        private final HiveText format;

        Text(FileSystem fs, Path file, HiveText format) throws IOException {
            super(fs, file);
            this.out = new BufferedWriter(new OutputStreamWriter(fs.create(file, false), StandardCharsets.UTF_8), 1 << 16);
            this.format = format;
        }

        @Override
        void add(List<Object[]> rows) throws IOException {
            for (Object[] row : rows) {
                out.write(format.format(row));
                out.write('\n');
            }
        }

        @Override
        void closeFile() throws IOException {
            out.close();
        }
    }

    private static final class Orc extends FileWriter {
        private final Writer writer;
        private final VectorizedRowBatch batch;
        private final OrcRows orc;

        Orc(FileSystem fs, Path file, TypeDescription schema, List<DataType> types, Configuration conf) throws IOException {
            super(fs, file);
            this.writer = OrcFile.createWriter(file, OrcFile.writerOptions(conf).fileSystem(fs).setSchema(schema)
                    .overwrite(false));
            this.batch = schema.createRowBatch();
            this.orc = new OrcRows(types);
        }

        @Override
        void add(List<Object[]> rows) throws IOException {
            for (Object[] row : rows) {
                orc.write(batch, batch.size++, row);
                if (batch.size == batch.getMaxSize()) {
                    writer.addRowBatch(batch);
                    batch.reset();
                }
            }
        }

        @Override
        void closeFile() throws IOException {
            if (batch.size > 0) {
                writer.addRowBatch(batch);
                batch.reset();
            }
            writer.close();
        }
    }

    private static final class Parquet extends FileWriter {
        private final ParquetWriter<Object[]> writer;

        Parquet(FileSystem fs, Path file, ParquetWriter<Object[]> writer) {
            super(fs, file);
            this.writer = writer;
        }

        @Override
        void add(List<Object[]> rows) throws IOException {
            for (Object[] row : rows) {
                writer.write(row);
            }
        }

        @Override
        void closeFile() throws IOException {
            writer.close();
        }
    }
}
