package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.storage.DataCorruptedException;

/** Spilled rows come back as written; a damaged or cut file is refused by name and offset, never read as fewer rows. */
class SpillFileTest {
    @TempDir
    Path dir;

    @Test
    void rowsComeBackInTheOrderWritten() {
        try (SpillFile f = new SpillFile(dir)) {
            f.append(List.<Object[]>of(new Object[] {1L, "a", new BigDecimal("2.50"), LocalDate.of(1995, 3, 1), null}));
            f.append(List.<Object[]>of(new Object[] {2L, "b", null, null, 0.5}, new Object[] {3L, "", BigDecimal.ONE, null, -1.0}));
            List<Object[]> back = new ArrayList<>();
            f.readAll(back::addAll);
            assertEquals(3, back.size());
            assertEquals("a", back.get(0)[1]);
            assertEquals(new BigDecimal("2.50"), back.get(0)[2]);
            assertEquals(LocalDate.of(1995, 3, 1), back.get(0)[3]);
            assertEquals(-1.0, back.get(2)[4]);
        }
        try (Stream<Path> left = listed()) {
            assertEquals(0, left.count(), "closing deletes the file");
        }
    }

    @Test
    void aDamagedOrCutFileIsRefused() throws Exception {
        for (String damage : List.of("payload", "length", "cut header", "cut payload")) {
            try (SpillFile f = new SpillFile(dir)) {
                f.append(List.<Object[]>of(new Object[] {1L, "first block"}));
                f.append(List.<Object[]>of(new Object[] {2L, "second block"}));
                Path path;
                try (Stream<Path> files = listed()) {
                    path = files.findFirst().orElseThrow();
                }
                f.readAll(rows -> { }); // flushes the file; reading twice is refused below only when damaged
                try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw")) {
                    long second = 8 + raf.readInt();
                    switch (damage) {
                        case "payload" -> {
                            raf.seek(second + 9);
                            raf.write(0x7F);
                        }
                        case "length" -> {
                            raf.seek(second);
                            raf.writeInt(Integer.MAX_VALUE);
                        }
                        case "cut header" -> raf.setLength(second + 5);
                        default -> raf.setLength(raf.length() - 2);
                    }
                }
                DataCorruptedException e = assertThrows(DataCorruptedException.class, () -> f.readAll(rows -> { }), damage);
                assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("at offset"), e.getMessage());
            }
        }
        try (Stream<Path> left = listed()) {
            assertFalse(left.findAny().isPresent(), "damaged files are deleted on close too");
        }
    }

    private Stream<Path> listed() {
        try {
            return Files.list(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
