package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.SequenceFile;

/** Reads back the rows a job wrote as SequenceFiles of {@link RowWritable} (its {@code part-*} files). */
public final class JobOutput {
    private JobOutput() {
    }

    public static long forEachRow(Configuration conf, Path dir, Consumer<Object[]> rows) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
        Arrays.sort(parts);
        long n = 0;
        NullWritable key = NullWritable.get();
        RowWritable value = new RowWritable();
        for (FileStatus part : parts) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf, SequenceFile.Reader.file(part.getPath()))) {
                while (r.next(key, value)) {
                    rows.accept(value.values());
                    n++;
                }
            }
        }
        return n;
    }

    public static List<Object[]> rows(Configuration conf, Path dir) throws IOException {
        List<Object[]> out = new ArrayList<>();
        forEachRow(conf, dir, out::add);
        return out;
    }
}
