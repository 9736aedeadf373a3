package org.oooengine.mapreduce;

import java.util.Locale;

/** How a table is held in files outside the cluster. */
public enum FileFormat {
    /** Hive's default text format (see {@link HiveText}). */
    TEXT,
    /** Apache ORC, one file per exported partition (see {@link OrcRows}). */
    ORC,
    /** Apache Parquet, read on the nodes ({@link ParquetColumns}); neither exported nor read by MapReduce jobs yet. */
    PARQUET;

    public static FileFormat parse(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown file format '" + name + "' (known: text, orc, parquet)", e);
        }
    }
}
