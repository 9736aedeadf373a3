package org.oooengine.mapreduce;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * How many rows a warehouse file holds, for the optimizer: ORC and Parquet say so in their footers
 * (read from the file's tail, not its rows); a text file's count is estimated from the lines in
 * {@value #SAMPLE_BYTES} bytes of it, spread over it (the first ones of a compressed file).
 */
public final class FileRowCounts {
    static final int SAMPLE_BYTES = 64 << 10;
    /** An uncompressed text file's sample: this many windows, evenly spread, filling the sample. */
    private static final int WINDOWS = 4;
    private static final int WINDOW_BYTES = SAMPLE_BYTES / WINDOWS;
    /** What a compressed text file is taken to expand to, its uncompressed length being unknown without reading it all. */
    private static final int COMPRESSED_TEXT_RATIO = 4;

    private FileRowCounts() {
    }

    /** The rows of {@code file} in {@code format} ({@code text}, {@code orc}, {@code parquet}); exact but for text. */
    public static long rows(FileStatus file, String format, Configuration conf) throws IOException {
        FileSystem fs = file.getPath().getFileSystem(conf);
        return switch (format) {
            case "orc" -> {
                try (Reader reader = OrcFile.createReader(file.getPath(),
                        OrcFile.readerOptions(conf).filesystem(fs).maxLength(file.getLen()))) {
                    yield reader.getNumberOfRows();
                }
            }
            case "parquet" -> {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromStatus(file, conf))) {
                    yield reader.getRecordCount();
                }
            }
            default -> textRows(fs, file, conf);
        };
    }

    private static long textRows(FileSystem fs, FileStatus file, Configuration conf) throws IOException {
        if (file.getLen() == 0) {
            return 0;
        }
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file.getPath());
        byte[] sample = new byte[SAMPLE_BYTES];
        int read = 0;
        try (InputStream raw = fs.open(file.getPath());
             InputStream in = codec == null ? raw : codec.createInputStream(raw)) {
            for (int n; read < sample.length && (n = in.read(sample, read, sample.length - read)) > 0; ) {
                read += n;
            }
        }
        long lines = newlines(sample, 0, read);
        if (read < sample.length) {
            return lines + (sample[read - 1] != '\n' ? 1 : 0); // the whole file was read
        }
        if (codec == null) {
            // lines often grow along a file (keys, dates): windows spread over it, not only its start
            lines = 0;
            try (FSDataInputStream in = fs.open(file.getPath())) {
                for (int w = 0; w < WINDOWS; w++) {
                    long at = (file.getLen() - WINDOW_BYTES) * w / (WINDOWS - 1);
                    in.readFully(at, sample, w * WINDOW_BYTES, WINDOW_BYTES);
                    lines += newlines(sample, w * WINDOW_BYTES, WINDOW_BYTES);
                }
            }
        }
        double bytesPerLine = (double) read / Math.max(1, lines);
        return Math.round(file.getLen() * (codec == null ? 1 : COMPRESSED_TEXT_RATIO) / bytesPerLine);
    }

    private static long newlines(byte[] bytes, int from, int length) {
        long lines = 0;
        for (int i = from; i < from + length; i++) {
            if (bytes[i] == '\n') {
                lines++;
            }
        }
        return lines;
    }
}
