package org.oooengine.mapreduce;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * Files a job reads some of a table's rows from: a file or directory, the files' format — text
 * with its field delimiter and NULL text, or ORC — and the stored values of the table's last
 * columns, which the files leave out (a Hive partition's values; none for a table read whole).
 */
public record FileSource(Path location, FileFormat format, char fieldDelimiter, String nullText,
                         List<Object> partitionValues) {
    public FileSource {
        partitionValues = Collections.unmodifiableList(new ArrayList<>(partitionValues)); // NULL is a partition value
    }
}
