package org.oooengine.hive.files;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.oooengine.core.types.DataType;
import org.oooengine.mapreduce.FileFormat;
import org.oooengine.mapreduce.HiveText;
import org.oooengine.core.settings.TableProperties;

/**
 * How a table's files hold its rows: ORC, Parquet, or Hive's text format with its field delimiter
 * and the text that stands for NULL. A table held in files carries its layout in its properties.
 */
public record FileLayout(FileFormat format, char fieldDelimiter, String nullText) {
    /** Property naming the file format ({@code text} or {@code orc}): its presence marks a table held in files. */
    public static final String FORMAT = TableProperties.FILE_FORMAT.name();
    /** Property listing the partition keys (comma separated, the table's last columns) of a partitioned table. */
    public static final String PARTITION_KEYS = TableProperties.FILE_PARTITION_KEYS.name();
    /** Hive's property for the field delimiter: a character, or its code as a decimal number. */
    public static final String FIELD_DELIMITER = "field.delim";
    /** Hive's property for the text standing for NULL. */
    public static final String NULL_FORMAT = "serialization.null.format";

    public static final FileLayout TEXT = new FileLayout(FileFormat.TEXT, HiveText.FIELD_DELIMITER, HiveText.NULL);
    public static final FileLayout ORC = new FileLayout(FileFormat.ORC, HiveText.FIELD_DELIMITER, HiveText.NULL);
    public static final FileLayout PARQUET = new FileLayout(FileFormat.PARQUET, HiveText.FIELD_DELIMITER, HiveText.NULL);

    /** Hive's defaults for {@code format}. */
    public static FileLayout of(FileFormat format) {
        return switch (format) {
            case TEXT -> TEXT;
            case ORC -> ORC;
            case PARQUET -> PARQUET;
        };
    }

    /** The layout named by a table's properties; empty when the table is not held in files. */
    public static Optional<FileLayout> fromProperties(Map<String, String> properties) {
        String format = properties.get(FORMAT);
        if (format == null) {
            return Optional.empty();
        }
        String delimiter = properties.get(FIELD_DELIMITER);
        return Optional.of(new FileLayout(FileFormat.parse(format),
                delimiter == null ? HiveText.FIELD_DELIMITER : delimiter(delimiter),
                properties.getOrDefault(NULL_FORMAT, HiveText.NULL)));
    }

    /**
     * How LOAD DATA reads files into a table of the cluster: the format its {@code STORED AS}
     * recorded under {@code formatProperty} (text by default) with its delimiter and NULL text.
     */
    public static FileLayout forLoading(Map<String, String> properties, String formatProperty) {
        String delimiter = properties.get(FIELD_DELIMITER);
        return new FileLayout(FileFormat.parse(properties.getOrDefault(formatProperty, "text")),
                delimiter == null ? HiveText.FIELD_DELIMITER : delimiter(delimiter),
                properties.getOrDefault(NULL_FORMAT, HiveText.NULL));
    }

    /**
     * A delimiter as Hive's LazySimpleSerDe reads its property: a number is the character's code
     * (so {@code 1} is Ctrl-A and {@code 9} a tab), anything else its first character.
     */
    public static char delimiter(String property) {
        try {
            return (char) (Byte.parseByte(property) & 0xff);
        } catch (NumberFormatException notANumber) {
            if (property.isEmpty()) {
                throw new IllegalArgumentException("an empty field delimiter");
            }
            return property.charAt(0);
        }
    }

    /** This layout as table properties ({@link #fromProperties} reads them back). */
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(FORMAT, format.name().toLowerCase(java.util.Locale.ROOT));
        if (format == FileFormat.TEXT) {
            // ASCII control characters and digits as their code, so the value stays readable and unambiguous
            boolean asCode = fieldDelimiter < 128 && (Character.isISOControl(fieldDelimiter) || Character.isDigit(fieldDelimiter));
            p.put(FIELD_DELIMITER, asCode ? Integer.toString(fieldDelimiter) : String.valueOf(fieldDelimiter));
            p.put(NULL_FORMAT, nullText);
        }
        return p;
    }

    HiveText text(List<DataType> types) {
        return new HiveText(types, fieldDelimiter, nullText);
    }
}
