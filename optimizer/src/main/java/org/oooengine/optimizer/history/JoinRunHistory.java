package org.oooengine.optimizer.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.core.storage.Directories;

/**
 * The planned join runs of one cluster, newest last: a JSON line per run in
 * {@code <cluster-dir>/history/join-runs.jsonl}, private to the service's user. Appends hold a lock
 * on the file, so commands running at once do not interleave; the file keeps at most the
 * {@value #KEEP} newest runs, trimmed when it holds twice as many.
 */
public final class JoinRunHistory {
    public static final String FILE = "history/join-runs.jsonl";
    static final int KEEP = 1_000;
    private static final Logger LOG = LogManager.getLogger(JoinRunHistory.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path file;

    public JoinRunHistory(Path clusterDir) {
        this.file = clusterDir.resolve(FILE);
    }

    public Path file() {
        return file;
    }

    /** Adds a run; a history that cannot be written is logged, never the run's failure. */
    public void append(JoinRun run) {
        try {
            Directories.createPrivate(file.getParent());
            byte[] line = (JSON.writeValueAsString(run) + "\n").getBytes(StandardCharsets.UTF_8);
            try (FileChannel ch = Directories.openPrivate(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND); FileLock lock = ch.lock()) {
                if (endsInsideALine(ch)) { // a run cut short by a crash: the next starts a line of its own
                    ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
                }
                ch.write(ByteBuffer.wrap(line));
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (lines.size() > 2 * KEEP) {
                    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                    Directories.writePrivate(tmp, String.join("\n", lines.subList(lines.size() - KEEP, lines.size())) + "\n");
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot record the run in {}: {}", file, e.getMessage());
        }
    }

    private boolean endsInsideALine(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size == 0) {
            return false;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
            reader.read(last, size - 1);
        }
        return last.get(0) != '\n';
    }

    /**
     * The {@code n} newest runs, oldest first; lines that do not read as a run (a line cut short
     * by a crash) are skipped and logged.
     */
    public List<JoinRun> recent(int n) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history of join runs " + file + ": " + e.getMessage(), e);
        }
        List<JoinRun> out = new ArrayList<>();
        for (int i = Math.max(0, lines.size() - n); i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(JSON.readValue(line, JoinRun.class));
            } catch (JsonProcessingException e) {
                LOG.warn("{} line {} is not a join run, skipped: {}", file, i + 1, e.getOriginalMessage());
            }
        }
        return out;
    }
}
