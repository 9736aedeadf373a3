package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The footers of the Parquet files this process read lately. A file is cut into several splits,
 * and each split's reader would read and decode the whole footer again (a tenth of a scan of
 * TPC-H's lineitem, 49 row groups in 17 splits). A footer is kept by the file's path, length and
 * modification time: files are not rewritten in place (a table's new rows are new files), and one
 * that were would have another time. The least recently used go once the footers kept describe
 * more than {@link #MAX_CHUNKS} column chunks (a few hundred bytes each).
 */
final class ParquetFooters {
    static final long MAX_CHUNKS = 50_000;

    private record Key(String path, long length, long modified) {
    }

    private static final Map<Key, ParquetMetadata> KEPT = new LinkedHashMap<>(16, 0.75f, true);
    private static long chunks;

    private ParquetFooters() {
    }

    /** The footer of the file {@code status} describes, read with {@code options} unless kept. */
    static ParquetMetadata of(FileStatus status, Configuration conf, ParquetReadOptions options) throws IOException {
        Key key = new Key(status.getPath().toString(), status.getLen(), status.getModificationTime());
        synchronized (KEPT) {
            ParquetMetadata kept = KEPT.get(key);
            if (kept != null) {
                return kept;
            }
        }
        HadoopInputFile file = HadoopInputFile.fromStatus(status, conf);
        ParquetMetadata footer;
        try (SeekableInputStream in = file.newStream()) {
            footer = ParquetFileReader.readFooter(file, options, in);
        }
        keep(key, footer);
        return footer;
    }

    private static void keep(Key key, ParquetMetadata footer) {
        long size = chunksOf(footer);
        if (size > MAX_CHUNKS) {
            return;
        }
        synchronized (KEPT) {
            if (KEPT.putIfAbsent(key, footer) != null) {
                return; // another split's reader read it meanwhile
            }
            chunks += size;
            var eldest = KEPT.entrySet().iterator();
            while (chunks > MAX_CHUNKS && eldest.hasNext()) {
                chunks -= chunksOf(eldest.next().getValue());
                eldest.remove();
            }
        }
    }

    private static long chunksOf(ParquetMetadata footer) {
        long n = 0;
        for (BlockMetaData block : footer.getBlocks()) {
            n += block.getColumns().size();
        }
        return n;
    }

    /**
     * Whether row group {@code block} is the split's {@code [start, start + length)}: where its
     * middle byte lies, as Hadoop's Parquet input format assigns row groups, so that splits
     * tiling a file read each row group once.
     */
    static boolean inSplit(BlockMetaData block, long start, long length) {
        long middle = block.getStartingPos() + block.getCompressedSize() / 2;
        return middle >= start && middle < start + length;
    }
}
