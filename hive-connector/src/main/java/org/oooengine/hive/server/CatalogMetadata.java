package org.oooengine.hive.server;

import static org.oooengine.hive.server.WireColumn.bool;
import static org.oooengine.hive.server.WireColumn.integer;
import static org.oooengine.hive.server.WireColumn.smallint;
import static org.oooengine.hive.server.WireColumn.string;
import static org.oooengine.hive.server.WireColumn.tinyint;

import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.CatalogView;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlType;

/**
 * Answers the DatabaseMetaData calls from the catalog, with the result columns HiveServer2 uses
 * (the driver and tools read them by name and position). There are no catalogs, only schemas
 * (databases), and every table has type TABLE.
 */
final class CatalogMetadata {
    private static final String TABLE = "TABLE";
    private static final String VIEW = "VIEW";

    private CatalogMetadata() {
    }

    static MetadataResult catalogs() {
        return new MetadataResult(List.of(string("TABLE_CAT")), List.of());
    }

    static MetadataResult schemas(Catalog catalog, String schemaPattern) {
        Predicate<String> schemaMatches = LikePattern.compile(schemaPattern);
        List<Object[]> rows = new ArrayList<>();
        for (String db : sorted(catalog.databases())) {
            if (schemaMatches.test(db)) {
                rows.add(new Object[] {db, ""});
            }
        }
        return new MetadataResult(List.of(string("TABLE_SCHEM"), string("TABLE_CATALOG")), rows);
    }

    static MetadataResult tables(Catalog catalog, String schemaPattern, String tablePattern, List<String> tableTypes) {
        List<WireColumn> columns = List.of(string("TABLE_CAT"), string("TABLE_SCHEM"), string("TABLE_NAME"),
                string("TABLE_TYPE"), string("REMARKS"), string("TYPE_CAT"), string("TYPE_SCHEM"), string("TYPE_NAME"),
                string("SELF_REFERENCING_COL_NAME"), string("REF_GENERATION"));
        List<Object[]> rows = new ArrayList<>();
        boolean wantsTables = tableTypes == null || tableTypes.isEmpty()
                || tableTypes.stream().anyMatch(TABLE::equalsIgnoreCase);
        if (wantsTables) {
            for (TableInfo table : tables(catalog, schemaPattern, tablePattern)) {
                rows.add(new Object[] {"", table.database(), table.name(), TABLE, nullToEmpty(table.comment()),
                    null, null, null, null, null});
            }
        }
        if (tableTypes == null || tableTypes.isEmpty() || tableTypes.stream().anyMatch(VIEW::equalsIgnoreCase)) {
            for (CatalogView view : views(catalog, schemaPattern, tablePattern)) {
                rows.add(new Object[] {"", view.database(), view.name(), VIEW, nullToEmpty(view.comment()),
                    null, null, null, null, null});
            }
        }
        return new MetadataResult(columns, rows);
    }

    static MetadataResult tableTypes() {
        return new MetadataResult(List.of(string("TABLE_TYPE")), List.of(new Object[] {TABLE}, new Object[] {VIEW}));
    }

    static MetadataResult columns(Catalog catalog, String schemaPattern, String tablePattern, String columnPattern) {
        List<WireColumn> columns = List.of(string("TABLE_CAT"), string("TABLE_SCHEM"), string("TABLE_NAME"),
                string("COLUMN_NAME"), integer("DATA_TYPE"), string("TYPE_NAME"), integer("COLUMN_SIZE"),
                tinyint("BUFFER_LENGTH"), integer("DECIMAL_DIGITS"), integer("NUM_PREC_RADIX"), integer("NULLABLE"),
                string("REMARKS"), string("COLUMN_DEF"), integer("SQL_DATA_TYPE"), integer("SQL_DATETIME_SUB"),
                integer("CHAR_OCTET_LENGTH"), integer("ORDINAL_POSITION"), string("IS_NULLABLE"),
                string("SCOPE_CATALOG"), string("SCOPE_SCHEMA"), string("SCOPE_TABLE"), smallint("SOURCE_DATA_TYPE"),
                string("IS_AUTO_INCREMENT"));
        Predicate<String> columnMatches = LikePattern.compile(columnPattern);
        List<Object[]> rows = new ArrayList<>();
        List<TableInfo> described = new ArrayList<>(tables(catalog, schemaPattern, tablePattern));
        views(catalog, schemaPattern, tablePattern).forEach(v -> described.add(v.info()));
        for (TableInfo table : described) {
            for (int i = 0; i < table.columns().size(); i++) {
                ResultColumn column = table.columns().get(i);
                if (!columnMatches.test(column.name())) {
                    continue;
                }
                SqlType type = column.type();
                rows.add(new Object[] {null, table.database(), table.name(), column.name(), WireTypes.jdbcType(type),
                    type.toString(), WireTypes.columnSize(type), null, WireTypes.decimalDigits(type),
                    WireTypes.radix(type), DatabaseMetaData.columnNullable, nullToEmpty(column.comment()), null, null,
                    null, null, i + 1, "YES", null, null, null, null, "NO"});
            }
        }
        return new MetadataResult(columns, rows);
    }

    static MetadataResult typeInfo() {
        List<WireColumn> columns = List.of(string("TYPE_NAME"), integer("DATA_TYPE"), integer("PRECISION"),
                string("LITERAL_PREFIX"), string("LITERAL_SUFFIX"), string("CREATE_PARAMS"), smallint("NULLABLE"),
                bool("CASE_SENSITIVE"), smallint("SEARCHABLE"), bool("UNSIGNED_ATTRIBUTE"), bool("FIXED_PREC_SCALE"),
                bool("AUTO_INCREMENT"), string("LOCAL_TYPE_NAME"), smallint("MINIMUM_SCALE"), smallint("MAXIMUM_SCALE"),
                integer("SQL_DATA_TYPE"), integer("SQL_DATETIME_SUB"), integer("NUM_PREC_RADIX"));
        List<Object[]> rows = List.of(
                typeRow(SqlType.BOOLEAN, null, null, null, null),
                typeRow(SqlType.INT, 10, null, null, null),
                typeRow(SqlType.BIGINT, 19, null, null, null),
                typeRow(SqlType.DOUBLE, 15, null, null, null),
                typeRow(SqlType.decimal(SqlType.MAX_PRECISION, SqlType.MAX_PRECISION), SqlType.MAX_PRECISION, null, null, "precision,scale"),
                typeRow(SqlType.DATE, 10, "DATE '", "'", null),
                typeRow(SqlType.STRING, Integer.MAX_VALUE, "'", "'", null),
                typeRow(SqlType.varchar(65535), 65535, "'", "'", "length"),
                typeRow(SqlType.fixedChar(255), 255, "'", "'", "length"));
        return new MetadataResult(columns, rows);
    }

    private static Object[] typeRow(SqlType type, Integer precision, String prefix, String suffix, String createParams) {
        boolean numeric = type.isNumeric();
        short maxScale = (short) (type.kind() == SqlType.Kind.DECIMAL ? SqlType.MAX_PRECISION : 0);
        return new Object[] {type.kind().name(), WireTypes.jdbcType(type), precision, prefix, suffix, createParams,
            (short) DatabaseMetaData.typeNullable, type.isString(), (short) DatabaseMetaData.typeSearchable, !numeric,
            false, false, type.kind().name().toLowerCase(Locale.ROOT), (short) 0, maxScale, null, null,
            numeric ? 10 : null};
    }

    static MetadataResult functions() {
        return new MetadataResult(List.of(string("FUNCTION_CAT"), string("FUNCTION_SCHEM"), string("FUNCTION_NAME"),
                string("REMARKS"), integer("FUNCTION_TYPE"), string("SPECIFIC_NAME")), List.of());
    }

    static MetadataResult primaryKeys(Catalog catalog, String schema, String table) {
        List<WireColumn> columns = List.of(string("TABLE_CAT"), string("TABLE_SCHEM"), string("TABLE_NAME"),
                string("COLUMN_NAME"), integer("KEY_SEQ"), string("PK_NAME"));
        List<Object[]> rows = new ArrayList<>();
        // Exact names here, not patterns (JDBC getPrimaryKeys).
        for (TableInfo t : tables(catalog, escapeLike(schema), escapeLike(table))) {
            TableConstraints constraints = catalog.constraints(t.database(), t.name());
            // a table in files: the key declared DISABLE NOVALIDATE, as Hive's metastore lists it
            List<String> key = constraints.declaredKey(t.primaryKey() == null ? List.of() : t.primaryKey());
            String name = emptyToNull(constraints.primaryKeyName());
            for (int i = 0; i < key.size(); i++) {
                rows.add(new Object[] {null, t.database(), t.name(), key.get(i), i + 1, name});
            }
        }
        return new MetadataResult(columns, rows);
    }

    /**
     * The foreign keys (JDBC getCrossReference, and getImportedKeys and getExportedKeys through it)
     * of the foreign table that reference the parent table; a null name matches any. Keys are
     * declared DISABLE NOVALIDATE, so nothing cascades: NO ACTION, not deferrable.
     */
    static MetadataResult crossReference(Catalog catalog, String parentSchema, String parentTable, String foreignSchema,
                                         String foreignTable) {
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : tables(catalog, escapeLike(foreignSchema), escapeLike(foreignTable))) {
            for (TableConstraints.ForeignKey fk : catalog.constraints(t.database(), t.name()).foreignKeys()) {
                if (parentSchema != null && !parentSchema.equalsIgnoreCase(fk.database())
                        || parentTable != null && !parentTable.equalsIgnoreCase(fk.table())) {
                    continue;
                }
                String pkName = emptyToNull(catalog.constraints(fk.database(), fk.table()).primaryKeyName());
                for (int i = 0; i < fk.columns().size(); i++) {
                    rows.add(new Object[] {null, fk.database(), fk.table(), fk.referenced().get(i), null, t.database(),
                        t.name(), fk.columns().get(i), i + 1, (short) DatabaseMetaData.importedKeyNoAction,
                        (short) DatabaseMetaData.importedKeyNoAction, emptyToNull(fk.name()), pkName,
                        (short) DatabaseMetaData.importedKeyNotDeferrable});
                }
            }
        }
        return new MetadataResult(List.of(string("PKTABLE_CAT"), string("PKTABLE_SCHEM"), string("PKTABLE_NAME"),
                string("PKCOLUMN_NAME"), string("FKTABLE_CAT"), string("FKTABLE_SCHEM"), string("FKTABLE_NAME"),
                string("FKCOLUMN_NAME"), integer("KEY_SEQ"), smallint("UPDATE_RULE"), smallint("DELETE_RULE"),
                string("FK_NAME"), string("PK_NAME"), smallint("DEFERRABILITY")), rows);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static List<CatalogView> views(Catalog catalog, String schemaPattern, String tablePattern) {
        Predicate<String> schemaMatches = LikePattern.compile(schemaPattern);
        Predicate<String> tableMatches = LikePattern.compile(tablePattern);
        List<CatalogView> views = new ArrayList<>();
        for (String db : sorted(catalog.databases())) {
            if (schemaMatches.test(db)) {
                catalog.views(db).stream().filter(v -> tableMatches.test(v.name())).forEach(views::add);
            }
        }
        return views;
    }

    private static List<TableInfo> tables(Catalog catalog, String schemaPattern, String tablePattern) {
        Predicate<String> schemaMatches = LikePattern.compile(schemaPattern);
        Predicate<String> tableMatches = LikePattern.compile(tablePattern);
        List<TableInfo> tables = new ArrayList<>();
        for (String db : sorted(catalog.databases())) {
            if (schemaMatches.test(db)) {
                catalog.tables(db).stream()
                        .filter(t -> tableMatches.test(t.name()))
                        .sorted((a, b) -> a.name().compareTo(b.name()))
                        .forEach(tables::add);
            }
        }
        return tables;
    }

    private static String escapeLike(String name) {
        return name == null ? null : name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().toList();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
