package org.oooengine.core.store;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.StorageException;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;

/**
 * {@code store.json}: the schema, row counts and load parameters of a store directory. Written last
 * by a load, so a directory without it holds no complete store.
 */
public record StoreManifest(int formatVersion, int pageSize, double fillFactor, Map<String, Object> source,
                            String loadedAt, double loadSeconds, List<TableMeta> tables) {
    public static final String FILE_NAME = "store.json";
    public static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public record ColumnMeta(String name, String type) {
    }

    /** A secondary index; {@code scope} is null in stores written before scopes existed (= LOCAL). */
    public record IndexMeta(String name, List<String> columns, long entries, String file, IndexScope scope) {
        public IndexScope scopeOrLocal() {
            return scope == null ? IndexScope.LOCAL : scope;
        }
    }

    /**
     * A table partition's files: the clustered tree ({@code file}), its indexes, and its columnar copy
     * for scans ({@code columnsFile}; null in stores written before copies existed, which scan the tree);
     * {@code columnRanges}: per column stored as integers (ints, dates as epoch days, unscaled
     * decimals) its least and greatest stored value, for planning (null in older stores).
     */
    public record TableMeta(String name, List<ColumnMeta> columns, List<String> primaryKey, long rows, long dataBytes,
                            String file, List<IndexMeta> indexes, String columnsFile, Map<String, List<Long>> columnRanges) {
        @JsonIgnore
        public Schema schema() {
            List<Column> cols = new ArrayList<>();
            for (ColumnMeta c : columns) {
                cols.add(new Column(c.name(), DataType.parse(c.type())));
            }
            return new Schema(cols);
        }

        /** The entry of a table defined by {@code def} before any of its rows are stored: no files, no rows. */
        public static TableMeta describing(TableDefinition def) {
            List<ColumnMeta> cols = def.schema().columns().stream().map(c -> new ColumnMeta(c.name(), c.type().toString()))
                    .toList();
            List<IndexMeta> ixs = def.indexes().stream().map(ix -> new IndexMeta(ix.name(), ix.columns(), 0, null, ix.scope()))
                    .toList();
            return new TableMeta(def.name(), cols, def.primaryKey(), 0, 0, null, ixs, null, null);
        }

        /** The definition a load of this table would be given: a reload keeps its layout and indexes. */
        @JsonIgnore
        public TableDefinition definition() {
            List<TableDefinition.IndexDefinition> ixs = new ArrayList<>();
            for (IndexMeta ix : indexes) {
                ixs.add(new TableDefinition.IndexDefinition(ix.name(), ix.columns(), ix.scopeOrLocal()));
            }
            return new TableDefinition(name, schema(), primaryKey, ixs, false);
        }
    }

    public TableMeta table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table '" + name + "' in store; tables: "
                        + tables.stream().map(TableMeta::name).toList()));
    }

    public void write(Path dir) {
        JsonFiles.writeAtomically(dir.resolve(FILE_NAME), this);
    }

    public static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE_NAME));
    }

    public static StoreManifest read(Path dir) {
        Path f = dir.resolve(FILE_NAME);
        if (!Files.isRegularFile(f)) {
            throw new StorageException("no store at " + dir + " (" + FILE_NAME + " missing); load one with: "
                    + "ooo load tpch --sf 0.1 --store " + dir);
        }
        try {
            StoreManifest m = JSON.readValue(f.toFile(), StoreManifest.class);
            if (m.formatVersion() != FORMAT_VERSION) {
                throw new StorageException(f + " has store format " + m.formatVersion() + "; this engine reads "
                        + FORMAT_VERSION + ": reload the store");
            }
            return m;
        } catch (IOException e) {
            throw new StorageException("cannot parse " + f + ": " + e.getMessage(), e);
        }
    }
}
