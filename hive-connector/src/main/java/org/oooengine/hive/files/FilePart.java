package org.oooengine.hive.files;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Files holding some of a table's rows: a location, how its files hold rows, and the SQL values
 * of the table's partition columns for every row there (none for an unpartitioned table). The
 * files hold the other columns, which come first in the table, as Hive orders them.
 */
public record FilePart(String location, FileLayout layout, List<Object> partitionValues) {
    public FilePart {
        partitionValues = Collections.unmodifiableList(new ArrayList<>(partitionValues)); // a NULL partition value is allowed
    }

    public static FilePart whole(String location, FileLayout layout) {
        return new FilePart(location, layout, List.of());
    }
}
