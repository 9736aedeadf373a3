package org.oooengine.cluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTableTest {
    @Test
    void markdownListsEveryPlanAgainstItsEstimateByItsMedianRun() {
        ResultTable table = ResultTable.of(List.of(
                run(JoinMode.AUTO, 1, 0.50, 0.45, "ooo-pnlj"), run(JoinMode.PSMJ, 1, 12.0, 13.2, "psmj"),
                run(JoinMode.AUTO, 2, 0.40, 0.45, "ooo-pnlj"), run(JoinMode.PSMJ, 2, 11.0, 13.2, "psmj"),
                run(JoinMode.AUTO, 3, 0.90, 0.45, "ooo-pnlj"), run(JoinMode.PSMJ, 3, 14.0, 13.2, "psmj")));
        String n = System.lineSeparator();
        assertEquals("| query | selectivity | mode | plan | measured s | estimated s | estimate / measured |" + n
                + "| --- | ---: | --- | --- | ---: | ---: | ---: |" + n
                + "| PL | 1% | auto | ooo-pnlj | 0.5 | 0.45 | 0.90 |" + n
                + "| PL | 1% | psmj | psmj | 12 | 13.2 | 1.10 |" + n, table.estimatesMarkdown());
        assertTrue(table.markdown().endsWith(n + table.estimatesMarkdown()), table.markdown());
    }

    @Test
    void runsWithoutEstimatesHaveNoEstimatesTable() {
        ResultTable table = ResultTable.of(List.of(run(JoinMode.OOO, 1, 0.5, null, null)));
        assertEquals("", table.estimatesMarkdown());
        assertEquals(3, table.markdown().lines().count(), table.markdown()); // header, alignment, one row
    }

    private static JoinResult run(JoinMode mode, int run, double seconds, Double estimate, String chosen) {
        return new JoinResult("PL", mode, 1.0, 0.01, 0.01, 2000, 60_000, 0, seconds, 0, 0, 0, 128, 0, 0, 0, 0, 0,
                true, -1, run, 4, null, null, null, null, chosen, estimate, null);
    }
}
