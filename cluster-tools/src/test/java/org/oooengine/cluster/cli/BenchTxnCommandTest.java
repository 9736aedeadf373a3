package org.oooengine.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BenchTxnCommandTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"ooo, nlr, U-5R-5", "ooo, elr-group:16, U-10", "ooo, elr-swal, R-10", "rocksdb-optimistic, nlr, U-1",
            "rocksdb-pessimistic, nlr, U-10"})
    void shortRunPrintsThroughputAbortsAndLatencies(String engine, String protocol, String workload) throws Exception {
        Cli r = Cli.run("bench", "txn", "--scratch", dir.toString(), "--workload", workload, "--rows", "1000", "--threads", "2",
                "--engine", engine, "--protocol", protocol, "--durability", "nvm-sim:50", "--duration", "0.3", "--json");
        assertEquals(0, r.exitCode(), r::toString);
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(workload, j.get("workload").asText());
        assertEquals(engine, j.get("engine").asText());
        assertEquals("nvm-sim:50", j.get("durability").asText());
        assertEquals(2, j.get("threads").asInt());
        assertTrue(j.get("commits").asLong() > 0, r::toString);
        assertTrue(j.get("tps").asDouble() > 0, r::toString);
        assertTrue(j.get("abort_rate").asDouble() >= 0 && j.get("abort_rate").asDouble() < 1, r::toString);
        assertTrue(j.get("p99_us").asDouble() >= j.get("p50_us").asDouble(), r::toString);
        // The benchmark cleans up after itself.
        try (var files = Files.list(dir)) {
            assertFalse(files.findAny().isPresent());
        }
    }

    @Test
    void unknownProtocolIsAUsageError() {
        Cli r = Cli.run("bench", "txn", "--scratch", dir.toString(), "--workload", "U-1", "--threads", "1", "--engine", "ooo",
                "--protocol", "nlr-group:x");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("group size must be a whole number"), r::toString);
    }

    @Test
    void tooFewRowsIsAUsageError() {
        Cli r = Cli.run("bench", "txn", "--scratch", dir.toString(), "--workload", "U-10", "--rows", "5", "--threads", "1",
                "--engine", "ooo");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("--rows must be at least 10"), r::toString);
    }
}
