package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loads TPC-H SF 0.01 once and drives every command against it. */
class EndToEndTest {
    private static final List<String> RUN_FIELDS = List.of("query", "mode", "sf", "selectivity", "actual_selectivity",
            "outer_rows", "rows", "checksum", "seconds", "page_reads", "iops", "inflight", "max_io_inflight",
            "max_tasks_inflight", "cold", "buffer_pool_mb", "run");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    static Path store;

    @BeforeAll
    static void load() {
        store = tmp.resolve("tpch");
        Cli r = Cli.run("load", "tpch", "--sf", "0.01", "--store", store.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("8 tables"), r::toString);
        // No progress where stderr is no terminal.
        assertTrue(r.err().isEmpty(), r::toString);
    }

    /** A damaged page stops every strategy with an error naming file, page and checksums. */
    @Test
    void corruptPageIsReportedNotReturned(@TempDir Path copy) throws Exception {
        try (var files = Files.list(store)) {
            for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        Path lineitem = copy.resolve(org.oooengine.core.store.StoreManifest.read(copy).table("lineitem").file());
        long page = Files.size(lineitem) / 8192 / 2;
        try (var raf = new java.io.RandomAccessFile(lineitem.toFile(), "rw")) {
            raf.seek(page * 8192 + 500);
            int b = raf.read();
            raf.seek(page * 8192 + 500);
            raf.write(b ^ 0x10);
        }
        for (String mode : List.of("hash", "ooo", "inorder")) {
            Cli r = Cli.run("bench", "join", "--store", copy.toString(), "--query", "OL", "--selectivity", "1",
                    "--mode", mode, "--json");
            assertEquals(1, r.exitCode(), r::toString);
            assertTrue(r.out().isEmpty(), "no result rows for " + mode + ": " + r);
            assertTrue(r.err().contains("error: corrupt page " + page + " in " + lineitem
                    + ": checksum mismatch: expected 0x"), r::toString);
        }
    }

    private static JsonNode joinJson(String mode, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("bench", "join", "--store", store.toString(), "--query", "OL",
                "--selectivity", "0.01", "--mode", mode, "--json"));
        args.addAll(List.of(extra));
        Cli r = Cli.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(1, r.out().lines().count(), r::toString);
        return JSON.readTree(r.out());
    }

    @Test
    void allModesReturnTheSameRowsAndTheRequiredFields() throws Exception {
        JsonNode ooo = joinJson("ooo");
        JsonNode inorder = joinJson("inorder");
        JsonNode hash = joinJson("hash");
        JsonNode sync = joinJson("inorder-sync");
        assertEquals("inorder-sync", sync.get("mode").asText());
        for (JsonNode run : List.of(ooo, inorder, hash, sync)) {
            RUN_FIELDS.forEach(f -> assertTrue(run.has(f), "missing " + f + " in " + run));
            assertEquals(0.01, run.get("sf").asDouble());
            assertEquals("OL", run.get("query").asText());
            assertTrue(run.get("rows").asLong() > 0, run::toString);
            assertEquals(ooo.get("rows"), run.get("rows"));
            assertEquals(ooo.get("checksum"), run.get("checksum"));
        }
        assertEquals(org.oooengine.cluster.bench.BenchSettings.DEFAULT_INFLIGHT, ooo.get("inflight").asInt());
        assertEquals(1, inorder.get("inflight").asInt());
        assertTrue(hash.get("inflight").isNull());
    }

    @Test
    void coldRunsReadPagesWithManyInFlight() throws Exception {
        JsonNode cold = joinJson("ooo", "--cold", "--in-flight", "32");
        assertTrue(cold.get("cold").asBoolean());
        assertEquals(32, cold.get("buffer_pool_mb").asInt());
        assertTrue(cold.get("page_reads").asLong() > 0, cold::toString);
        assertTrue(cold.get("max_tasks_inflight").asInt() > 1, cold::toString);
    }

    @Test
    void sweepWritesTableJsonMarkdownAndPlot() throws Exception {
        Path json = tmp.resolve("sweep.json");
        Path md = tmp.resolve("sweep.md");
        Path png = tmp.resolve("sweep.png");
        Cli r = Cli.run("bench", "sweep", "--store", store.toString(), "--query", "PL", "--selectivities", "0.05,0.01",
                "--repeat", "2", "--json-out", json.toString(), "--markdown", md.toString(), "--plot", png.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("ooo vs inorder"), r::toString);
        assertTrue(r.out().contains("all modes returned the same rows"), r::toString);
        JsonNode runs = JSON.readTree(json.toFile());
        assertEquals(2 * 3 * 2, runs.size());
        RUN_FIELDS.forEach(f -> assertTrue(runs.get(0).has(f), "missing " + f));
        assertTrue(Files.readString(md).startsWith("| query | selectivity |"));
        byte[] header = Files.readAllBytes(png);
        assertEquals("PNG", new String(header, 1, 3, java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void quickstartReusesAStoreOfTheSameScaleAndAgrees() {
        Cli r = Cli.run("quickstart", "--sf", "0.01", "--store", store.toString(), "--nodes", "2");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("using the TPC-H SF 0.01 store"), r::toString);
        // three selectivities on one node, two on the cluster
        assertEquals(10, r.out().lines().filter(l -> l.startsWith("OL ") || l.startsWith("PL ")).count(), r::toString);
        assertTrue(r.out().contains("all modes returned the same rows"), r::toString);
        assertTrue(r.out().contains("the cluster returned the same rows as the single node"), r::toString);
    }

    @Test
    void calibrateReportsTheThreeRates() throws Exception {
        Cli r = Cli.run("calibrate", "--disk", tmp.toString(), "--file-size", "8", "--duration", "0.2", "--json");
        assumeFalse(r.err().contains("O_DIRECT"), "the temporary directory's filesystem refuses direct I/O");
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode c = JSON.readTree(r.out());
        for (String f : List.of("randread_iops_qd1", "randread_iops_qd64", "seqread_mib_s")) {
            assertTrue(c.get(f).asDouble() > 0, f + " in " + c);
        }
        assertEquals(8192, c.get("page_size").asInt());
        assertEquals(8, c.get("file_mb").asInt());
        try (var files = Files.list(tmp)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("ooo-calibration")), "file left behind");
        }
    }
}
