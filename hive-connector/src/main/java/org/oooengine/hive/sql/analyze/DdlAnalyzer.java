package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileLayout;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.optimizer.rel.Field;
import org.oooengine.optimizer.rel.RelNode;
import org.oooengine.core.settings.TableProperties;

/**
 * Hive's DDL and DML trees as {@link DdlStatement}s: CREATE/DROP DATABASE, CREATE TABLE (with
 * a primary key, foreign keys, indexes and AS SELECT), DROP TABLE, ALTER TABLE ({@link AlterTables}),
 * INSERT INTO/OVERWRITE ... SELECT | VALUES (one table or several), UPDATE, DELETE and LOAD DATA. Tables live on the cluster's nodes, hash-partitioned on their primary key's first
 * column; so Hive's PARTITIONED BY, CLUSTERED BY and LOCATION are refused by name.
 */
public final class DdlAnalyzer {
    /** TBLPROPERTIES key: the primary key's columns, comma-separated (instead of a PRIMARY KEY clause). */
    public static final String PRIMARY_KEY_PROPERTY = TableProperties.PRIMARY_KEY.name();
    /** TBLPROPERTIES key: columns that get a secondary index, comma-separated. */
    public static final String INDEXES_PROPERTY = TableProperties.INDEXES.name();
    /**
     * Table property: how LOAD DATA reads files for this table, {@code text} or {@code orc} (the
     * table's {@code STORED AS}); its rows themselves live on the nodes.
     */
    public static final String LOAD_FORMAT_PROPERTY = TableProperties.LOAD_FORMAT.name();
    /** Properties of a table held in files: its files' format, and its partition keys. */
    private static final String FILES_FORMAT = TableProperties.FILE_FORMAT.name();
    private static final String FILES_PARTITION_KEYS = TableProperties.FILE_PARTITION_KEYS.name();
    /**
     * TBLPROPERTIES key: where the leaves of the table's B+trees split when rows are written in
     * place ({@code half}, {@code rightmost}, {@code prefix} or {@code rate}; default {@code prefix}).
     */
    public static final String SPLIT_POLICY_PROPERTY = TableProperties.SPLIT_POLICY.name();
    public static final String DEFAULT_SPLIT_POLICY = TableProperties.SPLIT_POLICY.defaultValue();
    /**
     * TBLPROPERTIES key, Hive's: {@code 'true'} makes a transactional table, whose rows live in the
     * nodes' transactional stores and change in serializable transactions (one per statement).
     */
    public static final String TRANSACTIONAL_PROPERTY = "transactional";

    /** Asks the nodes to keep analytical copies of a transactional table (HTAP). */
    public static final String HTAP_COPIES_PROPERTY = TableProperties.HTAP_COPIES.name();

    /** Whether transactional table {@code table} has analytical copies on the nodes ({@link #HTAP_COPIES_PROPERTY}). */
    public static boolean copied(TableInfo table) {
        return transactional(table) && "true".equalsIgnoreCase(table.properties().get(HTAP_COPIES_PROPERTY));
    }

    /**
     * Refuses {@link #HTAP_COPIES_PROPERTY} with a value other than true or false, or true on a table
     * that is not transactional (only their changes are shipped).
     */
    public static void checkCopies(String table, Map<String, String> properties) {
        String v = properties.get(HTAP_COPIES_PROPERTY);
        if (v == null) {
            return;
        }
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            throw new SqlException(SqlException.SYNTAX, "table property " + HTAP_COPIES_PROPERTY
                    + " is true or false, not '" + v + "'");
        }
        if (v.equalsIgnoreCase("true") && !"true".equalsIgnoreCase(properties.get(TRANSACTIONAL_PROPERTY))) {
            throw new SqlException(SqlException.NOT_SUPPORTED, "table " + table + ": " + HTAP_COPIES_PROPERTY
                    + " needs a transactional table ('" + TRANSACTIONAL_PROPERTY + "'='true'), whose changes the "
                    + "copies are fed from");
        }
    }

    /** Whether {@code table} is transactional ({@link #TRANSACTIONAL_PROPERTY}). */
    public static boolean transactional(TableInfo table) {
        return "true".equalsIgnoreCase(table.properties().get(TRANSACTIONAL_PROPERTY));
    }

    private final Catalog catalog;
    private final String database;
    /** The statement as written: a view keeps it. */
    private final String sql;

    public DdlAnalyzer(Catalog catalog, String database) {
        this(catalog, database, null);
    }

    public DdlAnalyzer(Catalog catalog, String database, String sql) {
        this.catalog = catalog;
        this.database = database;
        this.sql = sql;
    }

    /** Whether a {@code TOK_QUERY} writes into a table rather than returning rows. */
    public static boolean isInsert(ASTNode query) {
        ASTNode insert = Ast.find(query, TOK_INSERT);
        if (insert == null) {
            return false;
        }
        ASTNode dest = Ast.child(insert, 0);
        return dest.getType() == TOK_INSERT_INTO
                || dest.getType() == TOK_DESTINATION && Ast.child(dest, 0).getType() == TOK_TAB;
    }

    public DdlStatement analyze(ASTNode n) {
        return switch (n.getType()) {
            case TOK_CREATEDATABASE -> createDatabase(n);
            case TOK_DROPDATABASE -> new DdlStatement.DropDatabase(Ast.name(Ast.child(n, 0)),
                    Ast.find(n, TOK_IFEXISTS) != null, Ast.find(n, TOK_CASCADE) != null);
            case TOK_CREATETABLE -> createTable(n);
            case TOK_DROPTABLE -> {
                String[] name = tableName(Ast.child(n, 0));
                yield new DdlStatement.DropTable(name[0], name[1], Ast.find(n, TOK_IFEXISTS) != null);
            }
            case TOK_ALTERVIEW -> Ast.child(n, 1).getType() == TOK_ALTERVIEW_RENAME
                    ? AlterTables.analyze(catalog, n, tableName(Ast.child(n, 0))) : Views.create(catalog, database, n, view());
            case TOK_CREATEVIEW -> Views.create(catalog, database, n, view());
            case TOK_ALTERTABLE -> switch (Ast.child(n, 1).getType()) {
                case TOK_ALTERTABLE_ADDPARTS -> addPartitions(n);
                case TOK_ALTERTABLE_DROPPARTS -> dropPartitions(n);
                default -> AlterTables.analyze(catalog, n, tableName(Ast.child(n, 0)));
            };
            case TOK_MSCK -> repairTable(n);
            case TOK_ANALYZE -> analyzeTable(n);
            case TOK_DROPVIEW -> {
                String[] name = tableName(Ast.child(n, 0));
                yield new DdlStatement.DropView(name[0], name[1], Ast.find(n, TOK_IFEXISTS) != null);
            }
            case TOK_QUERY -> insert(n);
            case TOK_UPDATE_TABLE -> update(n);
            case TOK_DELETE_FROM -> delete(n);
            case TOK_MERGE -> merge(n);
            case TOK_LOAD -> loadData(n);
            default -> throw Ast.notSupported("statement " + n.getText(), n);
        };
    }

    /** {@code CREATE DATABASE [IF NOT EXISTS] d [COMMENT '...']}; a clause it would not honour is refused by name. */
    private static DdlStatement createDatabase(ASTNode n) {
        for (ASTNode c : Ast.children(n).subList(1, n.getChildCount())) {
            switch (c.getType()) {
                case TOK_IFNOTEXISTS, TOK_DATABASECOMMENT -> { }
                case TOK_DATABASELOCATION, TOK_DATABASE_MANAGEDLOCATION -> throw Ast.notSupported(
                        c.getText().replace("TOK_DATABASE_", "").replace("TOK_DATABASE", "") + " of a database (its tables "
                        + "are on the nodes; an EXTERNAL table names its own LOCATION)", c);
                default -> throw Ast.notSupported("CREATE DATABASE clause " + c.getText().replace("TOK_", ""), c);
            }
        }
        return new DdlStatement.CreateDatabase(Identifiers.objectName("database", Ast.name(Ast.child(n, 0)), Ast.child(n, 0)),
                commentOf(n, TOK_DATABASECOMMENT), Ast.find(n, TOK_IFNOTEXISTS) != null);
    }

    /** The statement's text, which a view keeps. */
    private String view() {
        if (sql == null) {
            throw new IllegalStateException("a view is analysed with the text of its statement");
        }
        return sql;
    }

    private DdlStatement createTable(ASTNode n) {
        String[] name = tableName(Ast.child(n, 0));
        Identifiers.objectName("table", name[1], Ast.child(n, 0));
        List<ResultColumn> columns = new ArrayList<>();
        ConstraintClauses constraints = new ConstraintClauses(catalog, name[0]);
        List<String> primaryKey = constraints.primaryKey();
        Map<String, String> properties = new LinkedHashMap<>();
        String comment = "";
        boolean ifNotExists = false;
        RelNode asSelect = null;
        ASTNode bucketed = null;
        ASTNode external = null;
        ASTNode partitionedBy = null;
        String location = null;
        String storedAs = null;
        for (ASTNode c : Ast.children(n).subList(1, n.getChildCount())) {
            switch (c.getType()) {
                case TOK_IFNOTEXISTS -> ifNotExists = true;
                case TOK_TABCOLLIST -> columnList(c, columns, constraints);
                case TOK_TABLECOMMENT -> comment = Ast.unquote(Ast.child(c, 0).getText());
                case TOK_FILEFORMAT_GENERIC -> storedAs = Ast.child(c, 0).getText().toLowerCase(Locale.ROOT);
                case TOK_TABLEROWFORMAT -> rowFormat(c, properties);
                case TOK_TABLEPROPERTIES -> {
                    for (ASTNode p : Ast.children(Ast.child(c, 0))) {
                        String key = Ast.unquote(Ast.child(p, 0).getText());
                        String value = Ast.unquote(Ast.child(p, 1).getText());
                        if (key.equals(SPLIT_POLICY_PROPERTY)) {
                            splitPolicy(value, p);
                        }
                        properties.put(key, value);
                    }
                }
                case TOK_QUERY -> asSelect = new QueryAnalyzer(catalog, database).query(c);
                case TOK_TABLEPARTCOLS -> partitionedBy = c;
                case TOK_ALTERTABLE_BUCKETS -> bucketed = c; // Hive's ACID tables before Hive 3 had to be bucketed
                case TOK_TABLELOCATION -> location = Ast.unquote(Ast.child(c, 0).getText());
                case TOK_LIKETABLE -> throw Ast.notSupported("CREATE TABLE ... LIKE", c);
                default -> {
                    if ("external".equalsIgnoreCase(c.getText())) {
                        external = c;
                    } else {
                        throw Ast.notSupported("CREATE TABLE clause " + c.getText(), c);
                    }
                }
            }
        }
        if (external != null || location != null && asSelect != null) {
            // a table whose rows are the files at a LOCATION, as Hive 4 makes CREATE TABLE ... LOCATION ... AS SELECT
            return createExternal(name, columns, partitionedBy, location, storedAs, properties, comment, ifNotExists,
                    asSelect, bucketed, constraints, n);
        }
        if (partitionedBy != null) {
            throw Ast.notSupported("PARTITIONED BY of a table on the nodes (they are hash-partitioned over the nodes on "
                    + "their primary key's first column; an EXTERNAL table's files may be partitioned)", partitionedBy);
        }
        if (location != null) {
            throw Ast.notSupported("LOCATION of a table on the nodes (an EXTERNAL table's files are at a LOCATION)",
                    Ast.find(n, TOK_TABLELOCATION));
        }
        if (storedAs != null) {
            properties.put(LOAD_FORMAT_PROPERTY, loadFormat(storedAs, Ast.find(n, TOK_FILEFORMAT_GENERIC)));
        }
        if (asSelect != null) {
            columnsOfQuery(asSelect, columns, n);
        }
        if (columns.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "CREATE TABLE " + name[1] + " has no columns", n);
        }
        if (primaryKey.isEmpty() && properties.containsKey(PRIMARY_KEY_PROPERTY)) {
            primaryKey.addAll(columnsOf(properties.get(PRIMARY_KEY_PROPERTY), columns, PRIMARY_KEY_PROPERTY, n));
        }
        List<String> indexed = properties.containsKey(INDEXES_PROPERTY)
                ? columnsOf(properties.get(INDEXES_PROPERTY), columns, INDEXES_PROPERTY, n) : List.of();
        checkColumns(primaryKey, columns, "PRIMARY KEY", n);
        checkCopies(name[1], properties);
        if ("true".equalsIgnoreCase(properties.get(TRANSACTIONAL_PROPERTY))) {
            checkTransactional(name[1], primaryKey, indexed, properties, n);
        } else if (bucketed != null) {
            throw Ast.notSupported("CLUSTERED BY (tables are hash-partitioned over the nodes on their primary key's "
                    + "first column; a transactional table takes it and ignores it)", bucketed);
        }
        for (ResultColumn c : columns) {
            c.type().storedType(); // refuses a type the nodes cannot store, now
        }
        return new DdlStatement.CreateTable(name[0], name[1], columns, primaryKey, indexed, properties, comment,
                ifNotExists, asSelect, constraints.build(name[1], columns));
    }

    /** CREATE TABLE ... AS SELECT: the query's columns become the table's, which the statement may not list. */
    private static void columnsOfQuery(RelNode asSelect, List<ResultColumn> columns, ASTNode n) {
        if (!columns.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "CREATE TABLE ... AS SELECT takes its columns from the query", n);
        }
        for (Field f : asSelect.fields()) {
            SqlType type = f.type().kind() == SqlType.Kind.VOID ? SqlType.STRING : f.type();
            columns.add(new ResultColumn(Identifiers.columnName(f.name(), n), type));
        }
    }

    /** A transactional table finds its rows by primary key; what it does not keep is refused by name. */
    private static void checkTransactional(String table, List<String> primaryKey, List<String> indexed,
                                           Map<String, String> properties, ASTNode at) {
        if (primaryKey.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "transactional table " + table + " needs a primary key: "
                    + "PRIMARY KEY (...) DISABLE NOVALIDATE among its columns, or TBLPROPERTIES ('" + PRIMARY_KEY_PROPERTY
                    + "'='...')", at);
        }
        if (!indexed.isEmpty()) {
            throw Ast.notSupported("secondary indexes ('" + INDEXES_PROPERTY + "') on transactional table " + table, at);
        }
        if (properties.containsKey(LOAD_FORMAT_PROPERTY) && !"orc".equals(properties.get(LOAD_FORMAT_PROPERTY))) {
            throw Ast.notSupported("transactional table " + table + " STORED AS " + properties.get(LOAD_FORMAT_PROPERTY)
                    + " (Hive's ACID tables are ORC; LOAD DATA reads ORC files into it)", at);
        }
    }

    private static void columnList(ASTNode list, List<ResultColumn> columns, ConstraintClauses constraints) {
        for (ASTNode c : Ast.children(list)) {
            switch (c.getType()) {
                case TOK_TABCOL -> {
                    ASTNode type = Ast.child(c, 1);
                    if (!Types.isTypeToken(type)) {
                        throw Types.notAColumnType(type);
                    }
                    String name = Identifiers.columnName(Ast.name(Ast.child(c, 0)), c);
                    String comment = "";
                    for (ASTNode after : Ast.children(c).subList(2, c.getChildCount())) {
                        if (after.getType() == StringLiteral) {
                            comment = Ast.unquote(after.getText());
                        } else if (after.getType() == TOK_PRIMARY_KEY) {
                            // pk INT PRIMARY KEY: the table's key, as if declared after the columns
                            constraints.primaryKey(after, name);
                        } else if (after.getType() == TOK_FOREIGN_KEY) {
                            constraints.foreignKey(after); // names its column itself
                        } else {
                            throw Ast.notSupported("column constraint " + after.getText()
                                    + " (only PRIMARY KEY and FOREIGN KEY)", after);
                        }
                    }
                    columns.add(new ResultColumn(name, Types.of(type), comment));
                }
                case TOK_PRIMARY_KEY -> constraints.primaryKey(c, null);
                case TOK_FOREIGN_KEY -> constraints.foreignKey(c);
                default -> throw Ast.notSupported("constraint " + c.getText().replace("TOK_", ""), c);
            }
        }
    }

    /** The format LOAD DATA reads into a table on the nodes, as its STORED AS names it. */
    private static String loadFormat(String storedAs, ASTNode at) {
        return switch (storedAs) {
            case "textfile" -> "text";
            case "orc" -> "orc";
            default -> throw Ast.notSupported("STORED AS " + storedAs.toUpperCase(Locale.ROOT)
                    + " of a table on the nodes (LOAD DATA reads TEXTFILE and ORC into it)", at);
        };
    }

    /**
     * {@code CREATE EXTERNAL TABLE ... [PARTITIONED BY (...)] [ROW FORMAT DELIMITED ...]
     * [STORED AS TEXTFILE|ORC|PARQUET] LOCATION '...'}: the catalog keeps where the files are and
     * how they hold rows; the files stay where they are, also when the table is dropped.
     */
    private DdlStatement createExternal(String[] name, List<ResultColumn> columns, ASTNode partitionedBy, String location,
                                        String storedAs, Map<String, String> properties, String comment,
                                        boolean ifNotExists, RelNode asSelect, ASTNode bucketed,
                                        ConstraintClauses constraints, ASTNode n) {
        if (bucketed != null) {
            throw Ast.notSupported("CLUSTERED BY of a table whose rows are the files at its LOCATION", bucketed);
        }
        constraints.requireUnchecked(name[1]);
        if (asSelect != null) {
            if (partitionedBy != null) {
                throw Ast.notSupported("PARTITIONED BY in CREATE TABLE ... AS SELECT of a table held in files (create "
                        + "it, then INSERT ... PARTITION)", partitionedBy);
            }
            columnsOfQuery(asSelect, columns, n);
        }
        if (location == null || location.isBlank()) {
            throw Ast.error(SqlException.SYNTAX, "EXTERNAL table " + name[1] + " needs a LOCATION: where its files are", n);
        }
        // properties the reader would not honour: refused rather than ignored
        for (String key : List.of(TRANSACTIONAL_PROPERTY, PRIMARY_KEY_PROPERTY, INDEXES_PROPERTY, LOAD_FORMAT_PROPERTY,
                FILES_FORMAT, FILES_PARTITION_KEYS, "skip.header.line.count", "skip.footer.line.count", "escape.delim")) {
            if (properties.containsKey(key)) {
                throw Ast.notSupported("TBLPROPERTIES '" + key + "' of an EXTERNAL table", n);
            }
        }
        String format = switch (storedAs == null ? "textfile" : storedAs) {
            case "textfile" -> "text";
            case "orc" -> "orc";
            case "parquet" -> "parquet";
            default -> throw Ast.notSupported("STORED AS " + storedAs.toUpperCase(Locale.ROOT)
                    + " (an EXTERNAL table's files are TEXTFILE, ORC or PARQUET)", Ast.find(n, TOK_FILEFORMAT_GENERIC));
        };
        if (!format.equals("text") && properties.containsKey(FileLayout.FIELD_DELIMITER)) {
            throw Ast.notSupported("ROW FORMAT DELIMITED of " + format + " files", Ast.find(n, TOK_TABLEROWFORMAT));
        }
        properties.put(FILES_FORMAT, format);
        List<String> keys = new ArrayList<>();
        if (partitionedBy != null) {
            ASTNode list = Ast.child(partitionedBy, 0).getType() == TOK_TABCOLLIST ? Ast.child(partitionedBy, 0) : partitionedBy;
            List<ResultColumn> partitionColumns = new ArrayList<>();
            columnList(list, partitionColumns, new ConstraintClauses(catalog, name[0]));
            for (ResultColumn c : partitionColumns) {
                if (columns.stream().anyMatch(d -> d.name().equals(c.name()))) {
                    throw Ast.error(SqlException.SYNTAX, "partition column " + c.name() + " is also a column of the files",
                            partitionedBy);
                }
                if (c.type().isComplex()) {
                    throw Ast.notSupported("partition column " + c.name() + " of type " + c.type(), partitionedBy);
                }
                keys.add(c.name());
            }
            columns.addAll(partitionColumns);
            properties.put(FILES_PARTITION_KEYS, String.join(",", keys));
        }
        if (columns.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "CREATE TABLE " + name[1] + " has no columns", n);
        }
        for (ResultColumn c : columns) {
            c.type().storedType(); // refuses a type no file is read into, now
        }
        checkColumns(constraints.primaryKey(), columns, "PRIMARY KEY", n);
        return new DdlStatement.CreateExternalTable(name[0], name[1], columns, keys, location, properties, comment,
                ifNotExists, asSelect, constraints.buildInFiles());
    }

    private static void rowFormat(ASTNode n, Map<String, String> properties) {
        ASTNode serde = Ast.child(n, 0);
        if (serde.getType() != TOK_SERDEPROPS) {
            throw Ast.notSupported("ROW FORMAT SERDE", n);
        }
        for (ASTNode p : Ast.children(serde)) {
            if (p.getType() != TOK_TABLEROWFORMATFIELD) {
                throw Ast.notSupported("ROW FORMAT DELIMITED clause " + p.getText().replace("TOK_TABLEROWFORMAT", ""), p);
            }
            properties.put(FileLayout.FIELD_DELIMITER, Ast.unquote(Ast.child(p, 0).getText()));
        }
    }

    private static List<String> columnsOf(String list, List<ResultColumn> columns, String what, ASTNode at) {
        List<String> names = Arrays.stream(list.split(",")).map(s -> s.strip().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty()).toList();
        checkColumns(names, columns, what, at);
        return names;
    }

    /** The split policy a table property names; a clear error, at the property, for any other. */
    public static org.oooengine.core.storage.SplitPolicy splitPolicy(String name, ASTNode at) {
        try {
            return org.oooengine.core.storage.SplitPolicy.named(name);
        } catch (IllegalArgumentException e) {
            throw Ast.error(SqlException.SYNTAX, "TBLPROPERTIES '" + SPLIT_POLICY_PROPERTY + "': " + e.getMessage(), at);
        }
    }

    /**
     * {@code UPDATE t SET c = e, ... [WHERE p]}: the query {@code SELECT <each column, or its new
     * value> FROM t [WHERE p]} gives each row as it will be. A primary-key column keeps its value
     * (the row would move to another node and another place in the tree).
     */
    private DdlStatement update(ASTNode n) {
        TableInfo target = writableByKey(n, "UPDATE");
        Map<String, ASTNode> values = assignments(target, Ast.find(n, TOK_SET_COLUMNS_CLAUSE));
        List<ASTNode> selected = new ArrayList<>();
        for (ResultColumn c : target.columns()) {
            selected.add(values.getOrDefault(c.name(), column(c.name())));
        }
        RelNode rows = new QueryAnalyzer(catalog, database).query(selectFrom(n, selected));
        return new DdlStatement.Update(target, toTableColumns(rows, target, targetColumns(target, null), Map.of(), n));
    }

    /** {@code DELETE FROM t [WHERE p]}: the query {@code SELECT * FROM t [WHERE p]} gives the rows to delete. */
    private DdlStatement delete(ASTNode n) {
        TableInfo target = writableByKey(n, "DELETE");
        List<ASTNode> selected = target.columns().stream().map(c -> column(c.name())).toList();
        RelNode rows = new QueryAnalyzer(catalog, database).query(selectFrom(n, selected));
        return new DdlStatement.Delete(target, toTableColumns(rows, target, targetColumns(target, null), Map.of(), n));
    }

    /**
     * {@code MERGE INTO t [AS x] USING s [AS y] ON c WHEN MATCHED [AND p] THEN UPDATE SET ... | DELETE
     * ... WHEN NOT MATCHED [AND p] THEN INSERT [(cols)] VALUES (...)}, Hive's syntax, into a
     * transactional table. Each WHEN clause becomes a query: a matched one {@code SELECT <the row as
     * it will be, or as it is> FROM t x JOIN s y ON c WHERE p AND NOT <an earlier matched clause's
     * p>}, a not-matched one {@code SELECT <the values> FROM s y LEFT JOIN t x ON c WHERE x.<key> IS
     * NULL AND p AND NOT <an earlier one's p>}: the first clause whose condition holds takes the row.
     */
    private DdlStatement merge(ASTNode n) {
        ASTNode targetRef = Ast.child(n, 0);
        TableInfo target = table(Ast.child(targetRef, 0));
        if (!transactional(target)) {
            throw Ast.notSupported("MERGE into " + target.name() + ", which is not transactional (MERGE needs "
                    + "TBLPROPERTIES ('transactional'='true'), as in Hive)", n);
        }
        String alias = targetRef.getChildCount() > 1 ? Ast.name(Ast.child(targetRef, 1))
                : Ast.name(Ast.child(Ast.child(targetRef, 0), Ast.child(targetRef, 0).getChildCount() - 1));
        ASTNode source = Ast.child(n, 1);
        ASTNode on = Ast.child(n, 2);
        List<DdlStatement.MergeAction> actions = new ArrayList<>();
        List<ASTNode> earlierMatched = new ArrayList<>();
        List<ASTNode> earlierNotMatched = new ArrayList<>();
        for (ASTNode clause : Ast.children(n).subList(3, n.getChildCount())) {
            if (clause.getType() != TOK_MATCHED && clause.getType() != TOK_NOT_MATCHED) {
                throw Ast.notSupported("MERGE clause " + clause.getText(), clause);
            }
            boolean matched = clause.getType() == TOK_MATCHED;
            ASTNode action = Ast.child(clause, 0);
            ASTNode condition = clause.getChildCount() > 1 ? Ast.child(clause, 1) : null;
            List<ASTNode> earlier = matched ? earlierMatched : earlierNotMatched;
            List<ASTNode> where = new ArrayList<>();
            if (!matched) {
                where.add(function("isnull", qualified(alias, target.primaryKey().get(0))));
            }
            if (condition != null) {
                where.add(Ast.copy(condition));
            }
            for (ASTNode e : earlier) {
                // not taken by an earlier clause: its condition is false or unknown there
                where.add(function("if", Ast.copy(e), Ast.node(KW_FALSE, "false", List.of()), Ast.node(KW_TRUE, "true", List.of())));
            }
            earlier.add(condition == null ? Ast.node(KW_TRUE, "true", List.of()) : condition);
            List<ASTNode> selected = new ArrayList<>();
            DdlStatement.MergeAction.Kind kind;
            List<Integer> columns = targetColumns(target, null);
            if (!matched) {
                kind = DdlStatement.MergeAction.Kind.INSERT;
                ASTNode values = Ast.child(action, action.getChildCount() - 1);
                if (action.getChildCount() > 1) {
                    columns = targetColumns(target, Ast.child(action, 0));
                }
                Ast.children(values).subList(1, values.getChildCount()).forEach(v -> selected.add(Ast.copy(v)));
            } else if (action.getType() == TOK_DELETE) {
                kind = DdlStatement.MergeAction.Kind.DELETE;
                target.columns().forEach(c -> selected.add(qualified(alias, c.name())));
            } else {
                kind = DdlStatement.MergeAction.Kind.UPDATE;
                Map<String, ASTNode> set = assignments(target, Ast.find(action, TOK_SET_COLUMNS_CLAUSE));
                target.columns().forEach(c -> selected.add(set.containsKey(c.name()) ? Ast.copy(set.get(c.name()))
                        : qualified(alias, c.name())));
            }
            ASTNode join = matched
                    ? Ast.node(TOK_JOIN, "TOK_JOIN", List.of(Ast.copy(targetRef), Ast.copy(source), Ast.copy(on)))
                    : Ast.node(TOK_LEFTOUTERJOIN, "TOK_LEFTOUTERJOIN", List.of(Ast.copy(source), Ast.copy(targetRef),
                    Ast.copy(on)));
            RelNode rows = new QueryAnalyzer(catalog, database).query(select(join, selected, and(where)));
            actions.add(new DdlStatement.MergeAction(kind, toTableColumns(rows, target, columns, Map.of(), clause)));
        }
        return new DdlStatement.Merge(target, actions);
    }

    /** An UPDATE's {@code SET c = e, ...}: each column and its new value's expression; a key column is refused. */
    private static Map<String, ASTNode> assignments(TableInfo target, ASTNode set) {
        Map<String, ASTNode> values = new LinkedHashMap<>();
        for (ASTNode assignment : Ast.children(set)) {
            String column = Ast.name(Ast.child(Ast.child(assignment, 0), 0)).toLowerCase(Locale.ROOT);
            if (target.indexOf(column) < 0) {
                throw Ast.error(SqlException.UNKNOWN_COLUMN, "table " + target.name() + " has no column " + column, assignment);
            }
            if (target.primaryKey().contains(column)) {
                throw Ast.notSupported("UPDATE of primary key column " + column + " of " + target.name()
                        + " (DELETE the row and INSERT it with its new key)", assignment);
            }
            values.put(column, Ast.child(assignment, 1));
        }
        return values;
    }

    private static ASTNode qualified(String alias, String column) {
        return Ast.node(DOT, ".", List.of(Ast.node(TOK_TABLE_OR_COL, "TOK_TABLE_OR_COL",
                List.of(Ast.node(Identifier, alias, List.of()))), Ast.node(Identifier, column, List.of())));
    }

    private static ASTNode function(String name, ASTNode... args) {
        List<ASTNode> children = new ArrayList<>();
        children.add(Ast.node(Identifier, name, List.of()));
        children.addAll(List.of(args));
        return Ast.node(TOK_FUNCTION, "TOK_FUNCTION", children);
    }

    /** The conjunction of {@code terms}; null for none. */
    private static ASTNode and(List<ASTNode> terms) {
        ASTNode all = null;
        for (ASTNode t : terms) {
            all = all == null ? t : Ast.node(KW_AND, "and", List.of(all, t));
        }
        return all;
    }

    /** {@code SELECT <selected> FROM <from> [WHERE <where>]}, as the parser would give it. */
    private static ASTNode select(ASTNode from, List<ASTNode> selected, ASTNode where) {
        List<ASTNode> exprs = selected.stream().map(e -> Ast.node(TOK_SELEXPR, "TOK_SELEXPR", List.of(e))).toList();
        List<ASTNode> insert = new ArrayList<>(List.of(
                Ast.node(TOK_DESTINATION, "TOK_DESTINATION", List.of(Ast.node(TOK_DIR, "TOK_DIR",
                        List.of(Ast.node(TOK_TMP_FILE, "TOK_TMP_FILE", List.of()))))),
                Ast.node(TOK_SELECT, "TOK_SELECT", exprs)));
        if (where != null) {
            insert.add(Ast.node(TOK_WHERE, "TOK_WHERE", List.of(where)));
        }
        return Ast.node(TOK_QUERY, "TOK_QUERY", List.of(Ast.node(TOK_FROM, "TOK_FROM", List.of(from)),
                Ast.node(TOK_INSERT, "TOK_INSERT", insert)));
    }

    /** The table an UPDATE or DELETE names, which must have a declared primary key to find its rows by. */
    private TableInfo writableByKey(ASTNode n, String statement) {
        TableInfo target = table(Ast.child(n, 0));
        if (target.primaryKey().isEmpty()) {
            throw Ast.notSupported(statement + " of " + target.name() + ", which has no PRIMARY KEY (its rows are "
                    + "numbered by a hidden row id): declare one to " + statement + " rows in place", n);
        }
        return target;
    }

    /** {@code SELECT <selected> FROM <the statement's table> [<its WHERE>]}, as the parser would give it. */
    private static ASTNode selectFrom(ASTNode statement, List<ASTNode> selected) {
        ASTNode where = Ast.find(statement, TOK_WHERE);
        return select(Ast.node(TOK_TABREF, "TOK_TABREF", List.of(Ast.child(statement, 0))), selected,
                where == null ? null : Ast.child(where, 0));
    }

    private static ASTNode column(String name) {
        return Ast.node(TOK_TABLE_OR_COL, "TOK_TABLE_OR_COL", List.of(Ast.node(Identifier, name, List.of())));
    }

    private static void checkColumns(List<String> names, List<ResultColumn> columns, String what, ASTNode at) {
        for (String name : names) {
            if (columns.stream().noneMatch(c -> c.name().equals(name))) {
                throw Ast.error(SqlException.UNKNOWN_COLUMN, what + " names column " + name + ", which the table does not have", at);
            }
        }
    }

    private DdlStatement insert(ASTNode query) {
        List<ASTNode> inserts = Ast.children(query).stream().filter(c -> c.getType() == TOK_INSERT).toList();
        return inserts.size() > 1 ? multiInsert(query, inserts) : insert(query, inserts.get(0));
    }

    /**
     * {@code FROM src INSERT ... SELECT ... INSERT ... SELECT ...}: each INSERT a query of its own
     * over the shared FROM (and WITH). Every query is read before any table is written, so each
     * reads the tables as they were before the statement.
     */
    private DdlStatement multiInsert(ASTNode query, List<ASTNode> inserts) {
        List<DdlStatement.Insert> each = new ArrayList<>();
        List<String> targets = new ArrayList<>();
        for (ASTNode insert : inserts) {
            ASTNode dest = Ast.child(insert, 0);
            if (!(dest.getType() == TOK_INSERT_INTO || Ast.child(dest, 0).getType() == TOK_TAB)) {
                throw Ast.notSupported("INSERT OVERWRITE DIRECTORY", dest);
            }
            List<ASTNode> parts = new ArrayList<>();
            Ast.children(query).stream().filter(c -> c.getType() != TOK_INSERT).forEach(c -> parts.add(Ast.copy(c)));
            ASTNode own = Ast.copy(insert);
            parts.add(own);
            DdlStatement.Insert one = insert(Ast.node(TOK_QUERY, "TOK_QUERY", parts), own);
            String target = one.target().database() + "." + one.target().name();
            if (targets.contains(target)) {
                throw Ast.notSupported("a multi-table INSERT that writes " + target + " twice", insert);
            }
            if (transactional(one.target())) {
                throw Ast.notSupported("a multi-table INSERT into transactional table " + target, insert);
            }
            targets.add(target);
            each.add(one);
        }
        return new DdlStatement.MultiInsert(each);
    }

    private DdlStatement.Insert insert(ASTNode query, ASTNode insert) {
        ASTNode dest = Ast.child(insert, 0);
        boolean overwrite = dest.getType() == TOK_DESTINATION;
        ASTNode tab = Ast.child(dest, 0);
        TableInfo target = table(Ast.child(tab, 0), true);
        List<String> keys = partitionKeys(target);
        int fileColumns = target.columns().size() - keys.size();
        ASTNode spec = Ast.find(tab, TOK_PARTSPEC);
        if (spec != null && keys.isEmpty()) {
            throw Ast.notSupported("INSERT into a PARTITION of " + target.name() + ", which is not partitioned", spec);
        }
        // Hive's PARTITION (k1='v', k2): static values first, then columns the query gives, which follow its others
        List<Object> staticValues = spec == null ? List.of() : staticPartition(target, keys, spec);
        List<Integer> targetColumns = targetColumns(target, Ast.find(dest, TOK_TABCOLNAME));
        if (!keys.isEmpty()) {
            targetColumns.removeIf(i -> i >= fileColumns);
            for (int k = staticValues.size(); k < keys.size(); k++) {
                targetColumns.add(fileColumns + k);
            }
        }
        RelNode source = values(insert, target, targetColumns);
        if (source == null) {
            // the query part is a query like any other once its destination is the result
            insert.setChild(0, Ast.node(TOK_DESTINATION, "TOK_DESTINATION",
                    List.of(Ast.node(TOK_DIR, "TOK_DIR", List.of(Ast.node(TOK_TMP_FILE, "TOK_TMP_FILE", List.of()))))));
            source = new QueryAnalyzer(catalog, database).query(query);
        }
        Map<Integer, Object> constants = new java.util.HashMap<>();
        for (int k = 0; k < staticValues.size(); k++) {
            constants.put(fileColumns + k, staticValues.get(k));
        }
        return new DdlStatement.Insert(target, toTableColumns(source, target, targetColumns, constants, dest), overwrite,
                staticValues);
    }

    /** {@code ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = v, ...) [PARTITION (...)]...}: of a partitioned table held in files. */
    private DdlStatement addPartitions(ASTNode n) {
        TableInfo target = partitionedTable(Ast.child(n, 0), "ALTER TABLE ... ADD PARTITION");
        List<String> keys = partitionKeys(target);
        ASTNode adds = Ast.child(n, 1);
        List<List<Object>> partitions = new ArrayList<>();
        for (ASTNode c : Ast.children(adds)) {
            switch (c.getType()) {
                case TOK_IFNOTEXISTS -> { }
                case TOK_PARTSPEC -> {
                    List<Object> values = staticPartition(target, keys, c);
                    if (values.size() < keys.size()) {
                        throw Ast.error(SqlException.SYNTAX, "ADD PARTITION gives every partition column a value", c);
                    }
                    partitions.add(values);
                }
                case TOK_PARTITIONLOCATION -> throw Ast.notSupported("a partition's own LOCATION (its directory is "
                        + "key=value under the table's location)", c);
                default -> throw Ast.notSupported("ADD PARTITION clause " + c.getText(), c);
            }
        }
        return new DdlStatement.AddPartitions(target, partitions, Ast.find(adds, TOK_IFNOTEXISTS) != null);
    }

    /**
     * {@code ALTER TABLE t DROP [IF EXISTS] PARTITION (k = v, ...) [, PARTITION (...)] [PURGE]}: each
     * spec equates some of the partition columns with constants; other comparisons are refused by name.
     */
    private DdlStatement dropPartitions(ASTNode n) {
        TableInfo target = partitionedTable(Ast.child(n, 0), "ALTER TABLE ... DROP PARTITION");
        List<String> keys = partitionKeys(target);
        ASTNode drops = Ast.child(n, 1);
        List<Map<String, Object>> specs = new ArrayList<>();
        boolean purge = false;
        for (ASTNode c : Ast.children(drops)) {
            switch (c.getType()) {
                case TOK_IFEXISTS -> { }
                case TOK_PARTSPEC -> specs.add(dropSpec(target, keys, c));
                default -> {
                    if (c.getText().equalsIgnoreCase("purge")) {
                        purge = true;
                    } else {
                        throw Ast.notSupported("DROP PARTITION clause " + c.getText(), c);
                    }
                }
            }
        }
        return new DdlStatement.DropPartitions(target, specs, Ast.find(drops, TOK_IFEXISTS) != null, purge);
    }

    /** One {@code PARTITION (k = v, ...)} of DROP PARTITION: partition column name to the SQL value it equals. */
    private static Map<String, Object> dropSpec(TableInfo target, List<String> keys, ASTNode spec) {
        Map<String, Object> values = new LinkedHashMap<>();
        ExprBinder constants = new ExprBinder(new Scope(List.of()));
        for (ASTNode pair : Ast.children(spec)) {
            String column = Ast.name(Ast.child(pair, 0)).toLowerCase(Locale.ROOT);
            int k = keys.indexOf(column);
            if (k < 0) {
                throw Ast.error(SqlException.SYNTAX, "PARTITION names " + column + ", which is not a partition column of "
                        + target.name() + " (" + String.join(", ", keys) + ")", pair);
            }
            if (pair.getChildCount() != 3 || !Ast.child(pair, 1).getText().equals("=")) {
                throw Ast.notSupported("DROP PARTITION by a comparison other than = (" + column + " "
                        + (pair.getChildCount() == 3 ? Ast.child(pair, 1).getText() : "") + ")", pair);
            }
            SqlType type = target.columns().get(target.columns().size() - keys.size() + k).type();
            Object value = ExprBinder.cast(constants.bind(Ast.child(pair, 2)), type).eval(new Object[0]);
            if (value == null) {
                throw Ast.error(SqlException.SYNTAX, "the value of partition column " + column + " is NULL or not a "
                        + type, pair);
            }
            if (values.put(column, value) != null) {
                throw Ast.error(SqlException.SYNTAX, "PARTITION names " + column + " twice", pair);
            }
        }
        return values;
    }

    /** {@code MSCK [REPAIR] TABLE t [ADD PARTITIONS]}: DROP and SYNC PARTITIONS, which forget partitions, are refused. */
    private DdlStatement repairTable(ASTNode n) {
        ASTNode tab = Ast.find(n, TOK_TABNAME);
        if (tab == null) {
            throw Ast.error(SqlException.SYNTAX, "MSCK names no table", n);
        }
        for (ASTNode c : Ast.children(n)) {
            String word = c.getText().toLowerCase(Locale.ROOT);
            if (word.equals("drop") || word.equals("sync")) {
                throw Ast.notSupported("MSCK ... " + word.toUpperCase(Locale.ROOT) + " PARTITIONS (partitions are only "
                        + "added)", c);
            }
        }
        return new DdlStatement.RepairTable(partitionedTable(tab, "MSCK REPAIR TABLE"));
    }

    /**
     * {@code ANALYZE TABLE t COMPUTE STATISTICS [NOSCAN | FOR COLUMNS [c, ...]]}. Statistics are
     * kept per table, so a PARTITION clause is refused.
     */
    private DdlStatement analyzeTable(ASTNode n) {
        ASTNode tab = Ast.child(n, 0);
        ASTNode partition = Ast.find(tab, TOK_PARTSPEC);
        if (partition != null) {
            throw Ast.notSupported("ANALYZE TABLE ... PARTITION (statistics are kept per table: analyze the whole table)",
                    partition);
        }
        String[] name = tableName(Ast.child(tab, 0));
        if (catalog.view(name[0], name[1]).isPresent() || catalog.systemTable(name[0], name[1]).isPresent()) {
            throw Ast.notSupported("ANALYZE TABLE of " + name[0] + "." + name[1] + ", a view or a system table: it keeps "
                    + "no rows of its own to count", tab);
        }
        TableInfo target = catalog.table(name[0], name[1]).orElseThrow(() ->
                Ast.error(SqlException.UNKNOWN_TABLE, "table not found: " + name[0] + "." + name[1], tab));
        boolean forColumns = false;
        boolean scan = true;
        List<String> columns = new ArrayList<>();
        for (ASTNode c : Ast.children(n).subList(1, n.getChildCount())) {
            switch (c.getType()) {
                case KW_COLUMNS -> forColumns = true;
                case KW_NOSCAN -> scan = false;
                case TOK_TABCOLNAME -> Ast.children(c).forEach(col -> columns.add(Ast.name(col)));
                default -> throw Ast.notSupported("ANALYZE TABLE ... " + c.getText().toUpperCase(Locale.ROOT), c);
            }
        }
        if (forColumns && columns.isEmpty()) {
            target.columns().forEach(c -> columns.add(c.name()));
        }
        for (String c : columns) {
            if (target.indexOf(c) < 0) {
                throw Ast.error(SqlException.UNKNOWN_COLUMN, "ANALYZE TABLE names column " + c + ", which " + target.name()
                        + " does not have", n);
            }
        }
        return new DdlStatement.AnalyzeTable(target, scan, columns.stream().map(c -> target.columns()
                .get(target.indexOf(c)).name()).distinct().toList());
    }

    private TableInfo partitionedTable(ASTNode tabName, String statement) {
        TableInfo target = table(tabName, true);
        if (partitionKeys(target).isEmpty()) {
            throw Ast.notSupported(statement + " of " + target.name() + ", which is not partitioned (partitions are "
                    + "those of tables held in files, PARTITIONED BY)", tabName);
        }
        return target;
    }

    /** The partition keys of a table held in files (its last columns, in order); none for any other table. */
    private static List<String> partitionKeys(TableInfo table) {
        String keys = table.properties().get(FILES_PARTITION_KEYS);
        return keys == null || keys.isBlank() ? List.of() : Arrays.stream(keys.split(",")).map(String::strip).toList();
    }

    /**
     * The values a PARTITION clause gives its leading keys, as SQL values of their columns. Every
     * key is named, in the table's order; those after the first without a value take theirs from
     * the query (dynamic partitions), so none of them may have one.
     */
    private static List<Object> staticPartition(TableInfo target, List<String> keys, ASTNode spec) {
        List<ASTNode> named = Ast.children(spec);
        if (named.size() != keys.size()) {
            throw Ast.error(SqlException.SYNTAX, "PARTITION names " + named.size() + " columns; " + target.name()
                    + " is partitioned by " + keys.size() + " (" + String.join(", ", keys) + ")", spec);
        }
        List<Object> values = new ArrayList<>();
        ExprBinder constants = new ExprBinder(new Scope(List.of()));
        for (int k = 0; k < keys.size(); k++) {
            ASTNode pair = named.get(k);
            String column = Ast.name(Ast.child(pair, 0));
            if (!column.equalsIgnoreCase(keys.get(k))) {
                throw Ast.error(SqlException.SYNTAX, "PARTITION names " + column + " where " + target.name()
                        + "'s partition column " + (k + 1) + " is " + keys.get(k), pair);
            }
            if (pair.getChildCount() < 2) {
                continue;
            }
            if (values.size() < k) {
                throw Ast.notSupported("a static partition value for " + column + " after a dynamic partition column "
                        + "(as in Hive, the static ones come first)", pair);
            }
            SqlType type = target.columns().get(target.columns().size() - keys.size() + k).type();
            Object value = ExprBinder.cast(constants.bind(Ast.child(pair, 1)), type).eval(new Object[0]);
            if (value == null) {
                throw Ast.error(SqlException.SYNTAX, "the value of partition column " + column + " is NULL or not a "
                        + type, pair);
            }
            values.add(value);
        }
        return values;
    }

    /** Positions in the table of the columns an INSERT names (all, in order, when it names none). */
    private static List<Integer> targetColumns(TableInfo target, ASTNode names) {
        List<Integer> out = new ArrayList<>();
        if (names == null) {
            for (int i = 0; i < target.columns().size(); i++) {
                out.add(i);
            }
            return out;
        }
        for (ASTNode c : Ast.children(names)) {
            int i = target.indexOf(Ast.name(c));
            if (i < 0) {
                throw Ast.error(SqlException.UNKNOWN_COLUMN, "table " + target.name() + " has no column " + Ast.name(c), c);
            }
            out.add(i);
        }
        return out;
    }

    /** {@code VALUES (..), (..)}, which Hive's parser writes as {@code inline(array(struct(..), ..))}; else null. */
    private static RelNode values(ASTNode insert, TableInfo target, List<Integer> targetColumns) {
        ASTNode select = Ast.find(insert, TOK_SELECT);
        if (select == null || select.getChildCount() != 1) {
            return null;
        }
        ASTNode f = Ast.child(Ast.child(select, 0), 0);
        if (f.getType() != TOK_FUNCTION || !"inline".equalsIgnoreCase(Ast.child(f, 0).getText())) {
            return null;
        }
        ASTNode array = Ast.child(f, 1);
        ExprBinder constants = new ExprBinder(new Scope(List.of()));
        List<Object[]> rows = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int i : targetColumns) {
            ResultColumn c = target.columns().get(i);
            fields.add(new Field(null, c.name(), c.type()));
        }
        for (ASTNode struct : Ast.children(array).subList(1, array.getChildCount())) {
            if (struct.getChildCount() - 1 != targetColumns.size()) {
                throw Ast.error(SqlException.SYNTAX, "a row of VALUES has " + (struct.getChildCount() - 1)
                        + " values for " + targetColumns.size() + " columns", struct);
            }
            Object[] row = new Object[targetColumns.size()];
            for (int i = 0; i < row.length; i++) {
                Expr e = ExprBinder.cast(constants.bind(Ast.child(struct, i + 1)), fields.get(i).type());
                row[i] = e.eval(new Object[0]);
            }
            rows.add(row);
        }
        return new RelNode.Values(fields, rows);
    }

    /** The source's columns placed at the named target columns, cast to their types; the others NULL. */
    private static RelNode toTableColumns(RelNode source, TableInfo target, List<Integer> targetColumns,
                                          Map<Integer, Object> constants, ASTNode at) {
        if (source.fields().size() != targetColumns.size()) {
            throw Ast.error(SqlException.SYNTAX, "INSERT into " + target.name() + " gives " + source.fields().size()
                    + " values for " + targetColumns.size() + " columns", at);
        }
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < target.columns().size(); i++) {
            ResultColumn c = target.columns().get(i);
            int from = targetColumns.indexOf(i);
            Expr e = constants.containsKey(i) ? new Expr.Literal(constants.get(i), c.type())
                    : from < 0 ? Expr.Literal.NULL : new Expr.Column(from, source.fields().get(from).type());
            exprs.add(ExprBinder.cast(e, c.type()));
            fields.add(new Field(null, c.name(), c.type()));
        }
        return new RelNode.Project(source, exprs, fields);
    }

    private DdlStatement loadData(ASTNode n) {
        String path = Ast.unquote(Ast.child(n, 0).getText());
        ASTNode tab = Ast.child(n, 1);
        if (Ast.find(tab, TOK_PARTSPEC) != null) {
            throw Ast.notSupported("LOAD DATA into a PARTITION", Ast.find(tab, TOK_PARTSPEC));
        }
        boolean local = false;
        boolean overwrite = false;
        for (ASTNode c : Ast.children(n).subList(2, n.getChildCount())) {
            switch (c.getText().toLowerCase(Locale.ROOT)) {
                case "local" -> local = true;
                case "overwrite" -> overwrite = true;
                default -> throw Ast.notSupported("LOAD DATA clause " + c.getText(), c);
            }
        }
        return new DdlStatement.LoadData(path, local, overwrite, table(Ast.child(tab, 0)));
    }

    private TableInfo table(ASTNode tabName) {
        return table(tabName, false);
    }

    /** The table a statement writes; one held in files only when {@code files} (INSERT writes them, nothing else does yet). */
    private TableInfo table(ASTNode tabName, boolean files) {
        String[] name = tableName(tabName);
        catalog.checkWritable(name[0], name[1]);
        if (catalog.view(name[0], name[1]).isPresent()) {
            throw Ast.error(SqlException.NOT_SUPPORTED, name[0] + "." + name[1] + " is a view: it cannot be written", tabName);
        }
        TableInfo table = catalog.table(name[0], name[1]).orElseThrow(() ->
                Ast.error(SqlException.UNKNOWN_TABLE, "table not found: " + name[0] + "." + name[1], tabName));
        if (table.properties().containsKey(FILES_FORMAT) && !files) {
            throw Ast.notSupported("changing rows of table " + name[0] + "." + name[1] + ", whose rows are the files at "
                    + table.storage() + ", other than by INSERT", tabName);
        }
        return table;
    }

    /** {database, table} of a {@code TOK_TABNAME}, in the session's database when it names none. */
    private String[] tableName(ASTNode n) {
        if (n.getChildCount() > 1) {
            return new String[] {Ast.name(Ast.child(n, 0)), Ast.name(Ast.child(n, 1))};
        }
        return new String[] {database, Ast.name(Ast.child(n, 0))};
    }

    private static String commentOf(ASTNode n, int type) {
        ASTNode c = Ast.find(n, type);
        return c == null ? "" : Ast.unquote(Ast.child(c, 0).getText());
    }
}
