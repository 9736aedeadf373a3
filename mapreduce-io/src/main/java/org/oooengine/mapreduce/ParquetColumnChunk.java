package org.oooengine.mapreduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.bytes.BytesUtils;

/**
 * One column chunk of a row group (a flat column), its pages decoded into a {@link ParquetFill}
 * many values at a time. The encodings writers use for flat columns (definition levels in RLE,
 * values PLAIN or dictionary ids) are decoded here from the page's bytes; any other encoding of
 * values or levels through Parquet's own readers, a value at a time. Pages come decompressed from
 * Parquet's page reader.
 */
final class ParquetColumnChunk {
    private final String where;
    private final ColumnDescriptor column;
    private final PageReader pages;
    private final PrimitiveTypeName physical;
    private final int maxDefinition;
    private boolean dictionaryRead;
    private boolean hasDictionary;

    // the page being read
    private int pageLeft;
    private RleBitPackedHybrid levels;
    private ValuesReader levelReader;
    private boolean fromDictionary;
    private RleBitPackedHybrid ids;
    private ByteBuffer plain;
    private ValuesReader values;
    private int[] defs = new int[0];
    private int[] idBuffer = new int[0];

    /** @param where the file and column, for errors */
    ParquetColumnChunk(String where, ColumnDescriptor column, PageReader pages) {
        this.where = where;
        this.column = column;
        this.pages = pages;
        this.physical = column.getPrimitiveType().getPrimitiveTypeName();
        this.maxDefinition = column.getMaxDefinitionLevel();
        if (column.getMaxRepetitionLevel() > 0) {
            throw new IllegalStateException(where + " is a repeated column, which no table column holds");
        }
    }

    /**
     * Decodes the next {@code n} values into {@code fill}'s vector at positions {@code [0, n)};
     * fails naming the file and column when its pages cannot be read.
     */
    void read(ParquetFill fill, int n) {
        try {
            decode(fill, n);
        } catch (RuntimeException e) { // parquet-mr's decoding and decompression errors among them
            String message = e.getMessage() != null && e.getMessage().contains(where) ? e.getMessage()
                    : "cannot read " + where + ": " + e.getMessage();
            throw new IllegalStateException(message, e);
        }
    }

    private void decode(ParquetFill fill, int n) {
        if (!dictionaryRead) {
            readDictionary(fill);
        }
        if (defs.length < n) {
            defs = new int[n];
            idBuffer = new int[n];
        }
        int done = 0;
        while (done < n) {
            if (pageLeft == 0) {
                nextPage();
            }
            int k = Math.min(pageLeft, n - done);
            int present = definitions(k);
            if (fromDictionary && present == k) {
                ids.read(idBuffer, 0, k);
                fill.fromDictionary(done, idBuffer, k);
            } else if (fromDictionary) {
                ids.read(idBuffer, 0, present);
                for (int i = 0, j = 0; i < k; i++) {
                    if (defs[i] == maxDefinition) {
                        fill.fromDictionary(done + i, idBuffer[j++]);
                    } else {
                        fill.setNull(done + i);
                    }
                }
            } else if (plain != null && present == k
                    && (physical == PrimitiveTypeName.INT64 || physical == PrimitiveTypeName.INT32)) {
                fill.plainIntegers(plain, physical == PrimitiveTypeName.INT32, done, k);
            } else {
                for (int i = 0; i < k; i++) {
                    if (present == k || defs[i] == maxDefinition) {
                        fill.at = done + i;
                        readValue(fill);
                    } else {
                        fill.setNull(done + i);
                    }
                }
            }
            pageLeft -= k;
            done += k;
        }
    }

    /**
     * Reads the next {@code k} definition levels; how many are of values present. Where all are,
     * {@code defs} is left as it was (a required column has no levels; a column without nulls in a
     * page has them in one run, skipped whole); else it holds them.
     */
    private int definitions(int k) {
        if (maxDefinition == 0) {
            return k;
        }
        if (levels != null) {
            if (levels.skipRepeated(maxDefinition, k)) {
                return k;
            }
            levels.read(defs, 0, k);
        } else {
            for (int i = 0; i < k; i++) {
                defs[i] = levelReader.readInteger();
            }
        }
        int present = 0;
        for (int i = 0; i < k; i++) {
            if (defs[i] == maxDefinition) {
                present++;
            }
        }
        return present;
    }

    private void readValue(ParquetFill fill) {
        if (plain != null) {
            switch (physical) {
                case INT32 -> fill.addInt(plain.getInt());
                case INT64 -> fill.addLong(plain.getLong());
                case DOUBLE -> fill.addDouble(plain.getDouble());
                case FLOAT -> fill.addFloat(plain.getFloat());
                case BINARY -> {
                    int length = plain.getInt();
                    fill.addBytes(plain.array(), plain.arrayOffset() + plain.position(), length);
                    plain.position(plain.position() + length);
                }
                case FIXED_LEN_BYTE_ARRAY -> fill.addBinary(binary(column.getPrimitiveType().getTypeLength()));
                case INT96 -> fill.addBinary(binary(12));
                default -> throw new IllegalStateException("PLAIN booleans are read by Parquet's reader");
            }
            return;
        }
        switch (physical) {
            case INT32 -> fill.addInt(values.readInteger());
            case INT64 -> fill.addLong(values.readLong());
            case DOUBLE -> fill.addDouble(values.readDouble());
            case FLOAT -> fill.addFloat(values.readFloat());
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> fill.addBinary(values.readBytes());
            case BOOLEAN -> fill.addBoolean(values.readBoolean());
        }
    }

    private Binary binary(int length) {
        Binary b = Binary.fromConstantByteArray(plain.array(), plain.arrayOffset() + plain.position(), length);
        plain.position(plain.position() + length);
        return b;
    }

    private void readDictionary(ParquetFill fill) {
        dictionaryRead = true;
        DictionaryPage page = pages.readDictionaryPage();
        if (page == null) {
            return;
        }
        try {
            fill.dictionary(page.getEncoding().initDictionary(column, page), physical);
            hasDictionary = true;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the dictionary of " + where + ": " + e.getMessage(), e);
        }
    }

    private void nextPage() {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IllegalStateException(where + ": the column chunk ends before its row group's rows");
        }
        pageLeft = page.getValueCount();
        try {
            if (page instanceof DataPageV1 v1) {
                byte[] bytes = v1.getBytes().toByteArray();
                int pos = 0;
                if (maxDefinition > 0) {
                    pos = levelsV1(v1.getDlEncoding(), bytes, pageLeft);
                }
                values(v1.getValueEncoding(), bytes, pos);
            } else {
                DataPageV2 v2 = (DataPageV2) page;
                levelReader = null;
                if (maxDefinition > 0) {
                    byte[] l = v2.getDefinitionLevels().toByteArray();
                    levels = new RleBitPackedHybrid(l, 0, l.length, BytesUtils.getWidthFromMaxInt(maxDefinition));
                }
                values(v2.getDataEncoding(), v2.getData().toByteArray(), 0);
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read a page of " + where + ": " + e.getMessage(), e);
        }
    }

    /** Sets up the definition levels of a version 1 page; where its values start. */
    private int levelsV1(Encoding encoding, byte[] bytes, int count) throws IOException {
        if (encoding == Encoding.RLE) {
            int length = ByteBuffer.wrap(bytes, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            levels = new RleBitPackedHybrid(bytes, 4, 4 + length, BytesUtils.getWidthFromMaxInt(maxDefinition));
            levelReader = null;
            return 4 + length;
        }
        levels = null;
        levelReader = encoding.getValuesReader(column, ValuesType.DEFINITION_LEVEL);
        ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes));
        levelReader.initFromPage(count, in);
        return (int) in.position();
    }

    private void values(Encoding encoding, byte[] bytes, int from) throws IOException {
        plain = null;
        values = null;
        ids = null;
        fromDictionary = encoding.usesDictionary();
        if (fromDictionary) {
            if (!hasDictionary) {
                throw new IllegalStateException("dictionary ids but no dictionary page");
            }
            ids = new RleBitPackedHybrid(bytes, from + 1, bytes.length, bytes[from] & 0xFF);
        } else if (encoding == Encoding.PLAIN && physical != PrimitiveTypeName.BOOLEAN) {
            plain = ByteBuffer.wrap(bytes, from, bytes.length - from).slice().order(ByteOrder.LITTLE_ENDIAN);
        } else {
            values = encoding.getValuesReader(column, ValuesType.VALUES);
            values.initFromPage(pageLeft, ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes, from, bytes.length - from)));
        }
    }
}
