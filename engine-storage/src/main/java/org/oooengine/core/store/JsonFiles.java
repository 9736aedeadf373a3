package org.oooengine.core.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.oooengine.core.storage.Directories;

/** Metadata files (store.json, cluster.json) written whole or not at all, readable by their owner only. */
public final class JsonFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonFiles() {
    }

    /** Writes {@code value} as indented JSON to a temporary file beside {@code file}, then renames it into place. */
    public static void writeAtomically(Path file, Object value) {
        try {
            Directories.createPrivate(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (OutputStream out = Directories.newPrivateOutputStream(tmp)) {
                JSON.writeValue(out, value);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
