package org.oooengine.core.store;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.oooengine.core.storage.StorageException;

/**
 * Names and places the files of a store's tables. Table names are user text (SQL identifiers may
 * hold almost anything between backquotes), so no file is ever named after one: each table version
 * gets an internal id, and the manifest maps names to files. Every file a manifest names is
 * resolved here and must be a plain name directly inside the store directory, so a manifest that
 * was tampered with or written by an older engine cannot reach outside it either.
 */
public final class StoreFiles {
    /** What a stored file name may look like: no separators, no dot-dot, no control characters. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private StoreFiles() {
    }

    /**
     * A new table id, the stem of that table version's files ({@code <id>.data}, {@code <id>.cols},
     * {@code <id>.<n>.idx}): the table's name cut down to {@code [a-z0-9_]} (at most 40 characters),
     * only so that a listing or a corruption message shows whose file it is, then 64 random bits,
     * so a rewritten table never meets the files of the version it replaces, nor those of another
     * table. Nothing of the name survives that could make the stem a path.
     */
    public static String newTableId(String tableName) {
        StringBuilder label = new StringBuilder();
        for (int i = 0; i < tableName.length() && label.length() < 40; i++) {
            char c = Character.toLowerCase(tableName.charAt(i));
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
                label.append(c);
            } else if (c == '.') { // a table of another database: <db>.<name>
                label.append('_');
            }
        }
        byte[] id = new byte[8];
        RANDOM.nextBytes(id);
        return (label.length() == 0 ? "t" : label) + "-" + HexFormat.of().formatHex(id);
    }

    public static String dataFile(String tableId) {
        return tableId + ".data";
    }

    public static String columnsFile(String tableId) {
        return tableId + ".cols";
    }

    /** The file of a table's index, by its position in the table's definition (index names are user text too). */
    public static String indexFile(String tableId, int index) {
        return tableId + "." + index + ".idx";
    }

    /**
     * The path of {@code file}, named by a manifest, in store directory {@code dir}.
     *
     * @throws StorageException when the name is not a plain file name that stays inside {@code dir}
     */
    public static Path resolve(Path dir, String file) {
        if (file == null || !PLAIN.matcher(file).matches() || file.contains("..")) {
            throw new StorageException("store " + dir + " names a file outside it or with an unsafe name: "
                    + quoted(file) + "; the store's manifest is damaged");
        }
        Path base = dir.toAbsolutePath().normalize();
        Path p = base.resolve(file).normalize();
        if (!base.equals(p.getParent())) {
            throw new StorageException("store " + dir + " names a file outside it: " + quoted(file));
        }
        return p;
    }

    private static String quoted(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("'");
        s.codePoints().limit(200).forEach(c -> {
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.append(s.length() > 200 ? "...'" : "'").toString();
    }
}
