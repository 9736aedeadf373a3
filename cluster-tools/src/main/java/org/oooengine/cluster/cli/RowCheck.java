package org.oooengine.cluster.cli;

import java.util.List;
import org.oooengine.cluster.bench.ResultTable;
import picocli.CommandLine;

/** Every mode must return the same rows: a benchmark of a wrong answer is worthless. */
final class RowCheck {
    private RowCheck() {
    }

    /** Prints the verdict and returns the exit code: 0 when all modes agree, 1 otherwise. */
    static int report(ResultTable table, CommandLine cmd) {
        List<String> disagreements = table.disagreements();
        if (disagreements.isEmpty()) {
            cmd.getOut().println("all modes returned the same rows (row counts and checksums agree)");
            cmd.getOut().flush();
            return 0;
        }
        cmd.getErr().println("error: the modes returned different rows:");
        disagreements.forEach(d -> cmd.getErr().println("  " + d));
        cmd.getErr().flush();
        return 1;
    }
}
