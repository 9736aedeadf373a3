package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * The PRIMARY KEY and FOREIGN KEY clauses of a CREATE TABLE, as Hive writes them: after the columns
 * ({@code [CONSTRAINT name] PRIMARY KEY (a, b) DISABLE NOVALIDATE [RELY]}, {@code [CONSTRAINT name]
 * FOREIGN KEY (c) REFERENCES t (k) DISABLE NOVALIDATE [RELY]}) or after one column's type. Foreign
 * keys are kept, not enforced, so one that is not {@code DISABLE NOVALIDATE} is refused; it must
 * name a table that has the referenced columns as its primary key, as Hive's metastore requires.
 */
final class ConstraintClauses {
    private final Catalog catalog;
    private final String database;
    private final List<String> primaryKey = new ArrayList<>();
    private String primaryKeyName = "";
    private boolean primaryKeyRely;
    private ASTNode primaryKeyChecked; // ENABLE or VALIDATE: the key is to be checked against the rows
    private final List<ASTNode> foreignKeys = new ArrayList<>();

    ConstraintClauses(Catalog catalog, String database) {
        this.catalog = catalog;
        this.database = database;
    }

    /** The primary key's columns, in order; filled by the clauses and by {@code ooo.primary.key}. */
    List<String> primaryKey() {
        return primaryKey;
    }

    /** {@code PRIMARY KEY (...)} after the columns, or after column {@code column}'s type (null: after the columns). */
    void primaryKey(ASTNode c, String column) {
        if (!primaryKey.isEmpty()) {
            throw Ast.error(SqlException.SYNTAX, "a table has one PRIMARY KEY; list its columns in one "
                    + "PRIMARY KEY (...) clause", c);
        }
        for (ASTNode part : Ast.children(c)) {
            switch (part.getType()) {
                case TOK_TABCOLNAME -> Ast.children(part).forEach(k -> primaryKey.add(Ast.name(k)));
                case TOK_CONSTRAINT_NAME -> primaryKeyName = Ast.name(Ast.child(part, 0));
                case TOK_RELY -> primaryKeyRely = true;
                case TOK_ENABLE, TOK_VALIDATE -> primaryKeyChecked = part;
                default -> { // DISABLE, NOVALIDATE, NORELY: on the nodes the key is the rows' key either way
                }
            }
        }
        if (column != null) {
            primaryKey.add(column);
        }
    }

    /**
     * Refuses what a table held in files cannot honour: its rows are files another tool may write,
     * so its primary key is never checked (it must not say ENABLE or VALIDATE), and foreign keys of
     * such a table are not kept.
     */
    void requireUnchecked(String table) {
        if (primaryKeyChecked != null) {
            throw Ast.notSupported("an enforced PRIMARY KEY of table " + table + ", whose rows are files (its key is "
                    + "kept, not checked: declare it DISABLE NOVALIDATE, and RELY for the planner to trust it)",
                    primaryKeyChecked);
        }
        if (!foreignKeys.isEmpty()) {
            throw Ast.notSupported("FOREIGN KEY of table " + table + ", whose rows are files", foreignKeys.get(0));
        }
    }

    /** {@code FOREIGN KEY (...) REFERENCES ...}, checked once the table's columns are known. */
    void foreignKey(ASTNode c) {
        foreignKeys.add(c);
    }

    /** The constraints of table {@code table}, whose columns are {@code columns}. */
    TableConstraints build(String table, List<ResultColumn> columns) {
        List<TableConstraints.ForeignKey> out = new ArrayList<>();
        for (ASTNode fk : foreignKeys) {
            out.add(foreignKey(fk, table, columns));
        }
        return new TableConstraints(primaryKeyName, primaryKeyRely, out);
    }

    /** The constraints of a table whose rows are files: its primary key is declared, not its own ({@link #requireUnchecked}). */
    TableConstraints buildInFiles() {
        return new TableConstraints(primaryKeyName, primaryKeyRely, List.of(), primaryKey);
    }

    private TableConstraints.ForeignKey foreignKey(ASTNode fk, String table, List<ResultColumn> columns) {
        String name = "";
        List<List<String>> lists = new ArrayList<>();
        String[] parent = null;
        boolean disabled = false;
        boolean validated = false;
        boolean rely = false;
        for (ASTNode part : Ast.children(fk)) {
            switch (part.getType()) {
                case TOK_CONSTRAINT_NAME -> name = Ast.name(Ast.child(part, 0));
                case TOK_TABCOLNAME -> lists.add(Ast.children(part).stream().map(Ast::name).toList());
                case TOK_TABNAME -> parent = part.getChildCount() > 1
                        ? new String[] {Ast.name(Ast.child(part, 0)), Ast.name(Ast.child(part, 1))}
                        : new String[] {database, Ast.name(Ast.child(part, 0))};
                case TOK_DISABLE -> disabled = true;
                case TOK_VALIDATE -> validated = true;
                case TOK_RELY -> rely = true;
                default -> { // ENABLE (refused below), NOVALIDATE, NORELY
                }
            }
        }
        if (!disabled || validated) {
            throw Ast.notSupported("an enforced FOREIGN KEY (foreign keys are kept, not checked: declare it "
                    + "DISABLE NOVALIDATE, as Hive does)", fk);
        }
        List<String> own = lists.get(0);
        List<String> referenced = lists.get(1);
        if (own.size() != referenced.size()) {
            throw Ast.error(SqlException.SYNTAX, "FOREIGN KEY has " + own.size() + " columns and references "
                    + referenced.size(), fk);
        }
        for (String c : own) {
            if (columns.stream().noneMatch(col -> col.name().equals(c))) {
                throw Ast.error(SqlException.UNKNOWN_COLUMN, "FOREIGN KEY names column " + c
                        + ", which the table does not have", fk);
            }
        }
        List<String> parentKey;
        if (parent[0].equals(database) && parent[1].equals(table)) {
            parentKey = primaryKey; // a table that references itself
        } else {
            String[] p = parent;
            if (catalog.view(p[0], p[1]).isPresent()) {
                throw Ast.error(SqlException.SYNTAX, "FOREIGN KEY references " + p[0] + "." + p[1] + ", a view", fk);
            }
            TableInfo t = catalog.table(p[0], p[1]).orElseThrow(() -> Ast.error(SqlException.UNKNOWN_TABLE,
                    "FOREIGN KEY references table " + p[0] + "." + p[1] + ", which does not exist", fk));
            parentKey = t.primaryKey();
        }
        if (!parentKey.equals(referenced)) {
            throw Ast.error(SqlException.SYNTAX, "FOREIGN KEY references (" + String.join(", ", referenced) + ") of "
                    + parent[0] + "." + parent[1] + ", which is not its primary key ("
                    + (parentKey.isEmpty() ? "it has none" : String.join(", ", parentKey)) + ")", fk);
        }
        return new TableConstraints.ForeignKey(name, own, parent[0], parent[1], referenced, rely);
    }
}
