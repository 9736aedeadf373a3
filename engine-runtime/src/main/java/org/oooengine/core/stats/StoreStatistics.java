package org.oooengine.core.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.store.JsonFiles;

/**
 * The statistics of every table of one store (a node's partitions, or a single-node store), kept
 * beside its manifest as {@code statistics.json}.
 *
 * @param collectedAt when they were collected (ISO instant)
 * @param seconds     how long collecting took
 * @param tables      per table
 */
public record StoreStatistics(String collectedAt, double seconds, Map<String, TableStatistics> tables) {
    public static final String FILE_NAME = "statistics.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public StoreStatistics {
        tables = Map.copyOf(tables);
    }

    static StoreStatistics of(Map<String, TableStatistics> tables, double seconds) {
        return new StoreStatistics(Instant.now().toString(), seconds, tables);
    }

    public TableStatistics table(String name) {
        TableStatistics t = tables.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no statistics for table " + name + "; tables: " + tables.keySet());
        }
        return t;
    }

    public void write(Path storeDir) {
        JsonFiles.writeAtomically(storeDir.resolve(FILE_NAME), this);
    }

    /** The statistics of the store in {@code storeDir}, if they were collected. */
    public static Optional<StoreStatistics> read(Path storeDir) {
        Path f = storeDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(f.toFile(), StoreStatistics.class));
        } catch (IOException e) {
            throw new StorageException("cannot parse " + f + ": " + e.getMessage() + " (run ooo analyze to collect anew)", e);
        }
    }
}
