package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ooo bench tpcc-fill}: one short run per policy on the same loaded warehouse, and its usage errors. */
class BenchTpccFillCommandTest {
    @TempDir
    Path dir;

    @Test
    void shortRunsReportTheOrderTablesFillUnderEachPolicy() throws Exception {
        double[] fill = new double[2];
        String[] policies = {"half", "prefix"};
        for (int i = 0; i < policies.length; i++) {
            Cli r = Cli.run("bench", "tpcc-fill", "--scratch", dir.toString(), "--warehouses", "1", "--transactions", "3000",
                    "--policy", policies[i], "--buffer-pool", "4", "--json");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode j = new ObjectMapper().readTree(r.out());
            assertEquals(policies[i], j.get("policy").asText());
            assertEquals(3000, j.get("transactions").asLong());
            for (String key : new String[] {"order_fill", "order_fill_loaded", "order_pages", "new_order_fill",
                "new_order_fill_loaded", "order_line_fill", "order_line_fill_loaded", "delivery_page_visits",
                "delivery_page_reads", "delivery_pool_misses", "tpm", "order_line_fill_histogram"}) {
                assertTrue(j.has(key), key + " in " + r.out());
            }
            assertEquals(11, j.get("fill_over_time").size(), "at the start and ten times on the way");
            Files.writeString(dir.resolve(policies[i] + ".json"), r.out());
            assertTrue(j.get("order_pages").asLong() >= j.get("order_pages_loaded").asLong(), r::toString);
            fill[i] = j.get("order_fill").asDouble();
        }
        assertTrue(fill[1] > fill[0], "prefix keeps the order table fuller than half: " + fill[0] + " vs " + fill[1]);
        assertTrue(Files.exists(dir.resolve("loaded-1").resolve("done")), "the load is kept for the next run");

        Path overTime = dir.resolve("fill.png");
        Path histogram = dir.resolve("histogram.png");
        Cli plot = Cli.run("bench", "tpcc-fill-plot", dir.resolve("half.json").toString(),
                dir.resolve("prefix.json").toString(), "--fill-over-time", overTime.toString(), "--histogram",
                histogram.toString());
        assertEquals(0, plot.exitCode(), plot::toString);
        for (Path png : new Path[] {overTime, histogram}) {
            byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 4);
            assertEquals("\u0089PNG", new String(head, java.nio.charset.StandardCharsets.ISO_8859_1), png.toString());
        }
        Cli nothing = Cli.run("bench", "tpcc-fill-plot", dir.resolve("half.json").toString());
        assertEquals(2, nothing.exitCode(), nothing::toString);
        Files.writeString(dir.resolve("other.json"), "{\"rows\": 3}");
        Cli wrong = Cli.run("bench", "tpcc-fill-plot", dir.resolve("other.json").toString(), "--histogram",
                histogram.toString());
        assertEquals(2, wrong.exitCode(), wrong::toString);
        assertTrue(wrong.err().contains("is not the JSON of a tpcc-fill run"), wrong::toString);
    }

    /**
     * Under half the order tables' grown parts deteriorate; the monitor reorganizes them while
     * transactions go on, back to at least 95% of their loaded fill, and the run reports the cost.
     */
    @Test
    void theMonitorReorganizesWhatHalfLetDeteriorate() throws Exception {
        Cli r = Cli.run("bench", "tpcc-fill", "--scratch", dir.toString(), "--warehouses", "1", "--transactions", "10000",
                "--policy", "half", "--reorganize", "--reorganize-step-leaves", "32", "--json");
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode j = new ObjectMapper().readTree(r.out());
        JsonNode reorg = j.get("reorganization");
        assertTrue(reorg.get("steps").asLong() > 1 && reorg.get("transactions").asLong() > 0, r::toString);
        assertTrue(reorg.get("entries_moved").asLong() > 0 && reorg.get("step_seconds").asDouble() > 0, r::toString);
        for (String table : new String[] {"order", "order_line"}) {
            double loaded = j.get(table + "_fill_loaded").asDouble();
            assertTrue(j.get(table + "_fill").asDouble() < 0.95 * loaded, table + " deteriorated: " + r.out());
            assertTrue(reorg.get(table + "_fill").asDouble() >= 0.95 * loaded, table + " reorganized: " + r.out());
        }
    }

    @Test
    void anUnknownPolicyIsAUsageError() {
        Cli r = Cli.run("bench", "tpcc-fill", "--scratch", dir.toString(), "--policy", "middle");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("unknown split policy 'middle' (half, rightmost, prefix or rate)"), r::toString);
    }
}
