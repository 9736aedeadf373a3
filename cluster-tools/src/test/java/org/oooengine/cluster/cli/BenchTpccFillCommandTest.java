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
            Cli r = Cli.run("bench", "tpcc-fill", "--dir", dir.toString(), "--warehouses", "1", "--transactions", "3000",
                    "--policy", policies[i], "--buffer-pool-mb", "4", "--json");
            assertEquals(0, r.exitCode(), r::toString);
            JsonNode j = new ObjectMapper().readTree(r.out());
            assertEquals(policies[i], j.get("policy").asText());
            assertEquals(3000, j.get("transactions").asLong());
            for (String key : new String[] {"order_fill", "order_fill_loaded", "order_pages", "new_order_fill",
                "delivery_page_reads", "delivery_pool_misses", "tpm"}) {
                assertTrue(j.has(key), key + " in " + r.out());
            }
            assertTrue(j.get("order_pages").asLong() >= j.get("order_pages_loaded").asLong(), r::toString);
            fill[i] = j.get("order_fill").asDouble();
        }
        assertTrue(fill[1] > fill[0], "prefix keeps the order table fuller than half: " + fill[0] + " vs " + fill[1]);
        assertTrue(Files.exists(dir.resolve("loaded-1").resolve("done")), "the load is kept for the next run");
    }

    @Test
    void anUnknownPolicyIsAUsageError() {
        Cli r = Cli.run("bench", "tpcc-fill", "--dir", dir.toString(), "--policy", "middle");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("unknown split policy 'middle' (half, rightmost, prefix or rate)"), r::toString);
    }
}
