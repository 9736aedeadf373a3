package org.oooengine.hive.files;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The parts of a table held in files, found under its location as Hive lays them out: the
 * location whole, or for a table partitioned by {@code k1, ..., kn} each directory
 * {@code k1=v1/.../kn=vn} below it (values escaped as Hive escapes them, NULL as
 * {@value #DEFAULT_PARTITION}). They are listed each time a statement reads the table, so files
 * and partitions written by another tool show at once.
 */
public final class PartitionDirectories {
    /** Hive's partition value for NULL. */
    public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

    private PartitionDirectories() {
    }

    /** The table's partition keys, in order (none: not partitioned). */
    public static List<String> keys(TableInfo table) {
        String keys = table.properties().get(FileLayout.PARTITION_KEYS);
        return keys == null || keys.isBlank() ? List.of() : Arrays.stream(keys.split(",")).map(String::strip).toList();
    }

    /** The parts of {@code table} under its location on the file system {@code conf} finds for it. */
    public static List<FilePart> parts(TableInfo table, Configuration conf) {
        FileLayout layout = FileLayout.fromProperties(table.properties()).orElseThrow(() -> new SqlException(
                SqlException.GENERAL, "table " + table.database() + "." + table.name() + " is not held in files"));
        List<String> keys = keys(table);
        if (keys.isEmpty()) {
            return List.of(FilePart.whole(table.storage(), layout));
        }
        Path location = new Path(table.storage());
        try {
            FileSystem fs = location.getFileSystem(conf);
            List<FilePart> parts = new ArrayList<>();
            addParts(fs, table, keys, layout, location, new ArrayList<>(), parts);
            return parts;
        } catch (FileNotFoundException e) {
            throw new SqlException(SqlException.GENERAL, "table " + table.database() + "." + table.name()
                    + ": no directory " + location);
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, "table " + table.database() + "." + table.name()
                    + ": cannot list its partitions under " + location + ": " + e.getMessage(), e);
        }
    }

    private static void addParts(FileSystem fs, TableInfo table, List<String> keys, FileLayout layout, Path dir,
                                 List<String> values, List<FilePart> out) throws IOException {
        if (values.size() == keys.size()) {
            try {
                out.add(new FilePart(dir.toString(), layout, values(table, values)));
            } catch (IllegalArgumentException e) {
                throw new SqlException(SqlException.GENERAL, "table " + table.database() + "." + table.name()
                        + ", partition " + dir + ": " + e.getMessage(), e);
            }
            return;
        }
        String prefix = keys.get(values.size()) + "=";
        FileStatus[] children = fs.listStatus(dir, p -> p.getName().toLowerCase(Locale.ROOT).startsWith(prefix));
        Arrays.sort(children, Comparator.comparing(s -> s.getPath().getName()));
        for (FileStatus child : children) {
            if (child.isDirectory()) {
                List<String> more = new ArrayList<>(values);
                more.add(unescape(child.getPath().getName().substring(prefix.length())));
                addParts(fs, table, keys, layout, child.getPath(), more, out);
            }
        }
    }

    /**
     * The directories of the table's partitions, relative to its location ({@code k1=v1/.../kn=vn},
     * as named on the file system), in name order.
     */
    public static List<String> directories(TableInfo table, Configuration conf) {
        Path location = new Path(table.storage());
        String prefix = location.toString().endsWith("/") ? location.toString() : location + "/";
        List<String> out = new ArrayList<>();
        for (FilePart part : parts(table, conf)) {
            String path = part.location();
            if (!path.startsWith(prefix)) {
                throw new IllegalStateException("partition " + path + " is not under " + prefix);
            }
            out.add(path.substring(prefix.length()));
        }
        return out;
    }

    /**
     * A partition's values, as its directories name them, as SQL values of the table's partition
     * columns (its last ones). Fails naming the value a column's type cannot read.
     */
    public static List<Object> values(TableInfo table, List<String> texts) {
        int first = table.columns().size() - texts.size();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            var column = table.columns().get(first + i);
            SqlType type = column.type();
            try {
                out.add(text == null || text.equals(DEFAULT_PARTITION) ? null
                        : type.fromStored(type.storedType().parseValue(text)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("partition value '" + text + "' of column " + column.name()
                        + " is not a " + type + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * The directory {@code k1=v1/.../kn=vn} (relative to the table's location) of the partition
     * whose stored values for the columns {@code columns} (named as {@code keys}) are {@code values}.
     */
    public static String directory(List<String> keys, List<org.oooengine.core.types.Column> columns, List<Object> values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                b.append('/');
            }
            Object v = values.get(i);
            b.append(keys.get(i)).append('=').append(v == null ? DEFAULT_PARTITION : escape(columns.get(i).type().format(v)));
        }
        return b.toString();
    }

    /** The values (as text, escapes undone) that a partition's relative directory {@code k1=v1/.../kn=vn} names. */
    public static List<String> valuesOf(String directory) {
        List<String> values = new ArrayList<>();
        for (String part : directory.split("/")) {
            values.add(unescape(part.substring(part.indexOf('=') + 1)));
        }
        return values;
    }

    /** A value as Hive writes it in a directory name: control characters and those a path gives meaning to as {@code %XX}. */
    static String escape(String value) {
        if (value.isEmpty()) {
            return DEFAULT_PARTITION; // Hive's too: an empty name is no directory
        }
        StringBuilder b = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            if (c < ' ' || c == 0x7F || "\"#%'*/:=?\\{[]^".indexOf(c) >= 0) {
                b.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** A directory name's value with Hive's {@code %XX} escapes undone. */
    static String unescape(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%' && i + 2 < name.length()) {
                try {
                    b.append((char) Integer.parseInt(name.substring(i + 1, i + 3), 16));
                    i += 2;
                    continue;
                } catch (NumberFormatException notAnEscape) {
                    // a lone % stays
                }
            }
            b.append(c);
        }
        return b.toString();
    }
}
