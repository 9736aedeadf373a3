package org.oooengine.core.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Torn and corrupt WAL tails end replay at the last valid record; newer formats are refused. */
class WalTailTest {
    @TempDir
    Path dir;

    private static byte[] key(int i) {
        return TransactionalDatabaseTest.key(i);
    }

    /** Ten commits, one row each, then a crash; returns the worker's WAL file. */
    private Path tenCommitsThenCrash(Durability durability) throws IOException {
        TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, durability);
        TransactionalTable t = db.createTable("t");
        Worker w = db.newWorker();
        for (int i = 0; i < 10; i++) {
            int k = i;
            w.run(tx -> {
                tx.put(t, key(k), TransactionalDatabaseTest.amount(k));
                return null;
            });
        }
        db.crash();
        try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
            return files.filter(f -> f.toString().endsWith("-w0.wal")).findFirst().orElseThrow();
        }
    }

    /** Start offsets of the records in a WAL file. */
    private static List<Long> recordOffsets(Path wal) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(wal));
        List<Long> offsets = new ArrayList<>();
        b.position(WalHeader.SIZE);
        while (b.remaining() >= 8) {
            int len = b.getInt(b.position());
            if (len == 0) {
                break;
            }
            offsets.add((long) b.position());
            b.position(b.position() + 8 + len);
        }
        return offsets;
    }

    private void assertRowsPresent(int present) {
        try (TransactionalDatabase db = TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE)) {
            TransactionalTable t = db.table("t");
            for (int i = 0; i < 10; i++) {
                byte[] v = Transaction.begin().get(t, key(i));
                if (i < present) {
                    assertNotNull(v, "row " + i);
                } else {
                    assertNull(v, "row " + i);
                }
            }
        }
    }

    @Test
    void tornTailEndsReplayAtTheLastCompleteRecord() throws IOException {
        Path wal = tenCommitsThenCrash(Durability.FSYNC);
        List<Long> offsets = recordOffsets(wal);
        assertEquals(10, offsets.size());
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.setLength(offsets.get(9) + 10); // the last record's frame and a few payload bytes
        }
        WalReader.Contents c = WalReader.read(wal);
        assertEquals(9, c.records().size());
        assertEquals(offsets.get(9), c.validEnd());
        assertTrue(c.problem().contains(wal.toString()) && c.problem().contains("offset " + offsets.get(9)),
                c.problem());
        assertRowsPresent(9);
    }

    @Test
    void corruptRecordEndsReplayAndNamesFileOffsetAndChecksums() throws IOException {
        Path wal = tenCommitsThenCrash(Durability.NONE);
        List<Long> offsets = recordOffsets(wal);
        long bad = offsets.get(5);
        try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
            f.seek(bad + 8 + 14);
            int b = f.read();
            f.seek(bad + 8 + 14);
            f.write(b ^ 0x40);
        }
        WalReader.Contents c = WalReader.read(wal);
        assertEquals(5, c.records().size());
        assertTrue(c.problem().matches("corrupt record in " + java.util.regex.Pattern.quote(wal.toString())
                + " at offset " + bad + ": expected checksum [0-9a-f]{8}, actual [0-9a-f]{8}"), c.problem());
        assertRowsPresent(5);
    }

    @Test
    void cleanEndOfAMappedLogIsNotAProblem() throws IOException {
        Path wal = tenCommitsThenCrash(Durability.nvmSim(50));
        WalReader.Contents c = WalReader.read(wal);
        assertEquals(10, c.records().size());
        assertNull(c.problem());
        assertRowsPresent(10);
    }

    @Test
    void walFromANewerFormatVersionIsRefused() throws IOException {
        TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE).close();
        Path newer = dir.resolve("wal").resolve("999-w0.wal");
        Files.write(newer, ByteBuffer.allocate(WalHeader.SIZE).putInt(WalHeader.MAGIC)
                .putInt(WalHeader.CURRENT_VERSION + 1).putLong(999).putInt(0).array());
        WalFormatException e = assertThrows(WalFormatException.class,
                () -> TransactionalDatabase.open(dir, LogProtocol.NLR, Durability.NONE));
        assertTrue(e.getMessage().contains(newer.toString())
                && e.getMessage().contains("format version " + (WalHeader.CURRENT_VERSION + 1)), e.getMessage());
        // Refusing must not have consumed anything: the file is still there for a newer build.
        assertTrue(Files.exists(newer));
    }
}
