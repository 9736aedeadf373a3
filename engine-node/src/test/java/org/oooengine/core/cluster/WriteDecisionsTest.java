package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.DataCorruptedException;

/** The decider's records of the statements it decided: kept across a restart, a torn last one dropped, bounded. */
class WriteDecisionsTest {
    @TempDir
    Path dir;

    @Test
    void decisionsSurviveAReopenAndATornLastRecordIsDropped() throws Exception {
        WriteDecisions d = WriteDecisions.open(dir);
        d.record(1);
        d.record(-7);
        d.close();
        Files.write(dir.resolve(WriteDecisions.FILE), new byte[] {0, 0, 0, 16, 1, 2}, StandardOpenOption.APPEND);
        WriteDecisions again = WriteDecisions.open(dir);
        assertTrue(again.committed(1) && again.committed(-7));
        assertFalse(again.committed(2));
        again.record(2);
        again.close();
        WriteDecisions third = WriteDecisions.open(dir);
        assertTrue(third.committed(2), "appended after the torn record was cut off");
        assertEquals(3, third.size());
        third.close();
    }

    @Test
    void aDamagedRecordBeforeTheLastIsReported() throws Exception {
        WriteDecisions d = WriteDecisions.open(dir);
        d.record(1);
        d.record(2);
        d.record(3);
        d.close();
        Path file = dir.resolve(WriteDecisions.FILE);
        byte[] bytes = Files.readAllBytes(file);
        bytes[20] ^= 1; // in the first record's payload
        Files.write(file, bytes);
        DataCorruptedException e = assertThrows(DataCorruptedException.class, () -> WriteDecisions.open(dir));
        assertTrue(e.getMessage().contains("at offset 0 of " + file) && e.getMessage().contains("checksum mismatch"),
                e.getMessage());
    }

    @Test
    void oldDecisionsGoOnceEnoughNewerOnesAreKeptAndTheFileShrinks() throws Exception {
        long[] now = {0};
        WriteDecisions.Limits limits = new WriteDecisions.Limits(10, 1000, 50, () -> now[0]);
        WriteDecisions d = WriteDecisions.open(dir, limits);
        for (int i = 0; i < 30; i++) {
            d.record(i); // all within the last second: kept, though more than 10
        }
        assertEquals(30, d.size());
        now[0] = 5000; // a while later: the old ones go, the newest 10 stay
        for (int i = 30; i < 35; i++) {
            d.record(i);
        }
        assertEquals(10, d.size());
        assertFalse(d.committed(24));
        assertTrue(d.committed(25) && d.committed(34));
        for (int i = 35; i < 100; i++) {
            d.record(i); // up to 50 young ones at most
        }
        assertTrue(d.size() <= 50, d.size() + " kept");
        assertTrue(d.committed(99));
        d.close();
        long records = Files.size(dir.resolve(WriteDecisions.FILE)) / 24;
        assertTrue(records <= 2L * 50 + 10, records + " records in the file");
        WriteDecisions again = WriteDecisions.open(dir, limits);
        assertTrue(again.committed(99) && !again.committed(24));
        again.close();
    }
}
