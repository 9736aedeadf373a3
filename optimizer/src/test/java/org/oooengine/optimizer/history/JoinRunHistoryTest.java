package org.oooengine.optimizer.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.optimizer.cost.CostTerms;

class JoinRunHistoryTest {
    @TempDir
    Path cluster;

    static JoinRun run(String query, double seconds) {
        return new JoinRun("2026-11-30T00:00:00Z", query, 0.01, "ooo-pnlj", true, 600, 612,
                List.of(new JoinRun.Part("index-join pipeline", new CostTerms(0.01, 0.05, true, 0.02, 0.03, 0.04, 0, 0), seconds)),
                Map.of(RefitFigure.WARM_ROW.path(), 1.2));
    }

    @Test
    void runsComeBackNewestLastAndPrivate() throws Exception {
        JoinRunHistory history = new JoinRunHistory(cluster);
        assertEquals(List.of(), history.recent(10));
        for (int i = 0; i < 5; i++) {
            history.append(run("Q" + i, i + 1));
        }
        List<JoinRun> last3 = history.recent(3);
        assertEquals(List.of("Q2", "Q3", "Q4"), last3.stream().map(JoinRun::query).toList());
        assertEquals(run("Q4", 5), last3.get(2));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(history.file())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(history.file().getParent())));
    }

    /** A job's start-up and scan were once in its fixed seconds: such a line reads with none apart. */
    @Test
    void aRunRecordedBeforeStartUpsAndScansWereToldApartReads() throws Exception {
        JoinRunHistory history = new JoinRunHistory(cluster);
        history.append(run("Q1", 1));
        Files.writeString(history.file(), "{\"at\":\"2026-11-30T00:00:00Z\",\"query\":\"PL\",\"selectivity\":0.1,"
                + "\"chosen\":\"psmj\",\"cold\":true,\"estimatedRows\":600.0,\"rows\":612,\"parts\":[{\"name\":\"psmj-1\","
                + "\"estimate\":{\"fixed\":4.5,\"disk\":0.0,\"overlapped\":false,\"warmRows\":0.0,\"coldReads\":0.0,"
                + "\"requests\":0.0,\"shuffledRows\":2.0,\"outputRows\":0.5},\"seconds\":7.5}],"
                + "\"figures\":{\"mapReduce.shuffleRowMicros\":1.5}}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        JoinRun old = history.recent(1).get(0);
        assertEquals(new CostTerms(4.5, 0, false, 0, 0, 0, 2.0, 0.5), old.parts().get(0).estimate());
        assertEquals(7.0, old.parts().get(0).estimate().seconds(), 1e-9);
    }

    @Test
    void aLineCutShortByACrashIsSkippedAndTheRunsAroundItRead() throws Exception {
        JoinRunHistory history = new JoinRunHistory(cluster);
        history.append(run("Q1", 1));
        Files.writeString(history.file(), "{\"at\":\"2026-11-30T00:00:00Z\",\"query\":\"Q", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        history.append(run("Q2", 2));
        assertEquals(List.of("Q1", "Q2"), history.recent(10).stream().map(JoinRun::query).toList());
    }

    @Test
    void theFileKeepsTheNewestRunsOnly() {
        JoinRunHistory history = new JoinRunHistory(cluster);
        for (int i = 0; i <= 2 * JoinRunHistory.KEEP; i++) {
            history.append(run("Q" + i, 1));
        }
        List<JoinRun> all = history.recent(10 * JoinRunHistory.KEEP);
        assertEquals(JoinRunHistory.KEEP, all.size());
        assertEquals("Q" + 2 * JoinRunHistory.KEEP, all.get(all.size() - 1).query());
        assertTrue(Files.notExists(history.file().resolveSibling(history.file().getFileName() + ".tmp")));
    }
}
