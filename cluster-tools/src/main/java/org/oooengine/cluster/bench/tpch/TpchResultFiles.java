package org.oooengine.cluster.bench.tpch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows each query returned, one tab-separated file per query ({@code <dir>/qNN.tsv}, one row
 * per line, NULL as {@code NULL}), for comparing the answers with other engines'.
 */
public final class TpchResultFiles {
    private TpchResultFiles() {
    }

    public static void write(Path dir, List<TpchQueryResult> results) {
        try {
            Files.createDirectories(dir);
            for (TpchQueryResult r : results) {
                if (r.ok()) {
                    List<String> lines = new ArrayList<>(r.resultRows().size());
                    for (Object[] row : r.resultRows()) {
                        lines.add(String.join("\t", Arrays.stream(row).map(TpchResultFiles::text).toList()));
                    }
                    Files.write(dir.resolve(r.query() + ".tsv"), lines);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the results to " + dir, e);
        }
    }

    private static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
    }
}
