package org.oooengine.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedReadChannelsTest {
    @TempDir
    Path dir;

    @Test
    void aFileAndItsHardLinkShareOneChannelUntilTheLastHolderLetsGo() throws Exception {
        Path file = Files.writeString(dir.resolve("a.data"), "rows of a");
        Files.createDirectories(dir.resolve("next"));
        Path link = Files.createLink(dir.resolve("next").resolve("a.data"), file);
        int before = SharedReadChannels.openCount();
        SharedReadChannels.Lease first = SharedReadChannels.open(file, false, StandardOpenOption.READ);
        SharedReadChannels.Lease second = SharedReadChannels.open(link, false, StandardOpenOption.READ);
        assertSame(first.channel(), second.channel());
        assertEquals(before + 1, SharedReadChannels.openCount());

        first.close();
        first.close(); // once is all a holder counts
        assertTrue(second.channel().isOpen(), "the other holder still reads it");
        Files.delete(file);
        Files.delete(link);
        assertEquals("rows of a", read(second));

        second.close();
        assertFalse(second.channel().isOpen());
        assertEquals(before, SharedReadChannels.openCount());
    }

    @Test
    void anotherFileOfTheSameNameIsNotTheSameFile() throws Exception {
        Path file = Files.writeString(dir.resolve("b.data"), "old");
        try (SharedReadChannels.Lease old = SharedReadChannels.open(file, false, StandardOpenOption.READ)) {
            Files.move(file, dir.resolve("b.moved"));
            Files.writeString(file, "new");
            try (SharedReadChannels.Lease renewed = SharedReadChannels.open(file, false, StandardOpenOption.READ)) {
                assertNotSame(old.channel(), renewed.channel());
                assertEquals("old", read(old));
                assertEquals("new", read(renewed));
            }
        }
    }

    @Test
    void runningOutOfFilesIsReportedWithTheFileAndTheLimit() {
        FileSystemException emfile = new FileSystemException("/data/store/t-1.data", null, "Too many open files");
        assertTrue(OpenFilesExhaustedException.isExhaustion(emfile));
        String message = new OpenFilesExhaustedException(Path.of("/data/store/t-1.data"), 12, emfile).getMessage();
        assertTrue(message.startsWith("cannot open /data/store/t-1.data: Too many open files"), message);
        assertTrue(message.contains("open files (ulimit -n)"), message);
        assertTrue(message.contains("12 of them table files"), message);
        assertFalse(OpenFilesExhaustedException.isExhaustion(new FileSystemException("x", null, "Permission denied")));
    }

    private static String read(SharedReadChannels.Lease lease) throws Exception {
        ByteBuffer b = ByteBuffer.allocate((int) lease.channel().size());
        while (b.hasRemaining() && lease.channel().read(b, b.position()) >= 0) {
            // positional reads until full
        }
        return new String(b.array(), StandardCharsets.UTF_8);
    }
}
