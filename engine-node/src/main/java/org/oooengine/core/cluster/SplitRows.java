package org.oooengine.core.cluster;

import java.util.List;
import java.util.function.Predicate;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.types.Schema;

/** The rows of a table held in files as one node reads them: the splits assigned to it, one after another. */
final class SplitRows implements PartitionPipeline.RowSource {
    private final FileReads.Scan scan;
    private final List<FileReads.Split> splits;
    private final SplitReader reader;
    private long bytesRead;

    SplitRows(FileReads.Scan scan, String node, SplitReader reader) {
        this.scan = scan;
        this.splits = scan.assignedTo(node);
        this.reader = reader;
    }

    @Override
    public Schema schema() {
        return scan.schema();
    }

    @Override
    public void forEachPage(Predicate<List<Object[]>> page) {
        boolean[] all = new boolean[scan.schema().size()];
        java.util.Arrays.fill(all, true);
        forEachPage(all, page);
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public void forEachPage(boolean[] wanted, Predicate<List<Object[]>> page) {
        Schema files = scan.fileSchema();
        boolean[] wantedInFiles = java.util.Arrays.copyOf(wanted, files.size());
        boolean[] more = {true};
        for (FileReads.Split split : splits) {
            bytesRead += reader.read(split, files, wantedInFiles, rows -> more[0] = page.test(rows));
            if (!more[0]) {
                return;
            }
        }
    }
}
