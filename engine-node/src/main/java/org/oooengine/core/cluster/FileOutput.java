package org.oooengine.core.cluster;

import java.util.Locale;
import org.oooengine.core.types.Schema;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;

/**
 * Where a pipeline's rows go when the nodes write them into files instead of sending them back
 * (INSERT ... SELECT into a table held in files): each run on a node writes, under
 * {@code directory}, a file of its own for every combination of values of the rows' last
 * {@code partitionKeys} columns, in {@code layout}, holding the columns before them as
 * {@code fileSchema} stores them. Its names start {@code part-<statement>-}. What each run wrote
 * comes back in rows of {@link #RECORD_COLUMNS} columns, the partition values after them.
 */
public record FileOutput(String directory, String statement, FileReads.Layout layout, Schema fileSchema,
                         int partitionKeys) {
    /** A written file's record: its path, rows and bytes; the partition values of its rows follow. */
    public static final int RECORD_COLUMNS = 3;

    public FileOutput {
        if (partitionKeys < 0 || !statement.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("an output of statement '" + statement + "' with " + partitionKeys
                    + " partition keys");
        }
    }

    /** The name ending Hive's writers give files of {@code layout}'s format. */
    public static String suffix(FileReads.Layout layout) {
        return switch (layout.format().toLowerCase(Locale.ROOT)) {
            case "orc" -> ".orc";
            case "parquet" -> ".parquet";
            default -> "";
        };
    }

    void write(PayloadWriter w) {
        FileWrites.writeTarget(w, new FileWrites.Target(directory, layout, fileSchema));
        w.putString(statement).putVarInt(partitionKeys);
    }

    static FileOutput read(PayloadReader r) {
        FileWrites.Target target = FileWrites.readTarget(r);
        try {
            return new FileOutput(target.path(), r.getString(), target.layout(), target.schema(), r.getVarInt());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("a pipeline's file output: " + e.getMessage());
        }
    }
}
