package org.oooengine.cluster.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** JSON output: single-line objects for stdout, pretty arrays for files. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static String line(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialise " + value, e);
        }
    }

    static void writeArray(Path file, List<?> values) {
        try {
            MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), values);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
