package org.oooengine.hive.files;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.oooengine.core.types.Schema;
import org.oooengine.mapreduce.HiveText;

/** The rows of one text file, a line each; compressed files (.gz, .bz2, ...) are read through their codec as Hive does. */
final class TextFileRows {
    private TextFileRows() {
    }

    static long read(Path file, FileLayout layout, Schema schema, Configuration conf, Consumer<Object[]> sink) {
        HiveText text = layout.text(schema.columns().stream().map(c -> c.type()).toList());
        long line = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(open(file, conf), StandardCharsets.UTF_8))) {
            for (String s = lines.readLine(); s != null; s = lines.readLine()) {
                line++;
                Object[] row;
                try {
                    row = text.parse(s, file + ", line " + line);
                } catch (IllegalArgumentException e) {
                    throw new TableFileException(e.getMessage(), e);
                }
                sink.accept(row);
            }
        } catch (IOException e) {
            throw new TableFileException("cannot read " + file + " after line " + line + ": " + e.getMessage(), e);
        }
        return line;
    }

    private static InputStream open(Path file, Configuration conf) throws IOException {
        InputStream in = file.getFileSystem(conf).open(file);
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(file);
        return codec == null ? in : codec.createInputStream(in);
    }
}
