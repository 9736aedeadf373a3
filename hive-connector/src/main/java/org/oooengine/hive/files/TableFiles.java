package org.oooengine.hive.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.types.Schema;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.HadoopSplitReader;

/**
 * Rows held in files: Hive text, ORC or Parquet, at a location on any Hadoop file system ({@code hdfs://...},
 * {@code file:/...}; a path without a scheme is on the configuration's default file system). The
 * location is one file or a directory whose data files are read, those of its subdirectories too,
 * in name order; names starting with {@code _} or {@code .} are not data, as in Hive. Rows come as
 * the engine stores values (see {@link org.oooengine.core.types.DataType}), one {@code Object[]} each.
 */
public final class TableFiles {
    private TableFiles() {
    }

    /** Reads the rows of {@code schema} in the files at {@code location}, in Hive's default layout for {@code format}. */
    public static long read(String location, FileFormat format, Schema schema, Configuration conf,
                            Consumer<Object[]> sink) {
        return read(location, FileLayout.of(format), schema, conf, sink);
    }

    /**
     * Reads the rows of {@code schema} in the files at {@code location}, passing each to {@code sink};
     * returns how many there were. Fails with a {@link TableFileException} naming the file (and line)
     * that cannot be read; whatever {@code sink} throws passes through unchanged.
     */
    public static long read(String location, FileLayout layout, Schema schema, Configuration conf,
                            Consumer<Object[]> sink) {
        long rows = 0;
        for (FileStatus file : statuses(location, conf)) {
            rows += switch (layout.format()) {
                case TEXT -> TextFileRows.read(file.getPath(), layout, schema, conf, sink);
                case ORC -> OrcFileRows.read(file.getPath(), schema, conf, sink);
                case PARQUET -> wholeParquetFile(file, schema, conf, sink);
            };
        }
        return rows;
    }

    private static long wholeParquetFile(FileStatus file, Schema schema, Configuration conf, Consumer<Object[]> sink) {
        long[] rows = {0};
        boolean[] all = new boolean[schema.size()];
        Arrays.fill(all, true);
        FileReads.Split whole = new FileReads.Split(file.getPath().toString(), 0, file.getLen(),
                SplitPlanner.layout(FileLayout.PARQUET), List.of(), List.of(), "here");
        try {
            new HadoopSplitReader(conf).read(whole, schema, all, page -> {
                page.forEach(sink);
                rows[0] += page.size();
                return true;
            });
        } catch (IllegalStateException e) {
            throw new TableFileException(e.getMessage(), e);
        }
        return rows[0];
    }

    /** The data files at {@code location}, in the order they are read. */
    public static List<Path> files(String location, Configuration conf) {
        return statuses(location, conf).stream().map(FileStatus::getPath).toList();
    }

    /** As {@link #files}, with their lengths and block sizes. */
    static List<FileStatus> statuses(String location, Configuration conf) {
        Path path = new Path(location);
        try {
            FileSystem fs = path.getFileSystem(conf);
            FileStatus status = fs.getFileStatus(path);
            List<FileStatus> out = new ArrayList<>();
            if (status.isDirectory()) {
                addDataFiles(fs, path, out);
            } else {
                out.add(status);
            }
            return out;
        } catch (FileNotFoundException e) {
            throw new TableFileException("no file or directory " + location, e);
        } catch (IOException e) {
            throw new TableFileException("cannot list " + location + ": " + e.getMessage(), e);
        }
    }

    private static void addDataFiles(FileSystem fs, Path dir, List<FileStatus> out) throws IOException {
        FileStatus[] children = fs.listStatus(dir, p -> !p.getName().startsWith("_") && !p.getName().startsWith("."));
        Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
        for (FileStatus child : children) {
            if (child.isDirectory()) {
                addDataFiles(fs, child.getPath(), out);
            } else {
                out.add(child);
            }
        }
    }
}
