package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.catalog.ResultColumn;

/**
 * {@code ALTER TABLE}: RENAME TO, SET and UNSET TBLPROPERTIES, CHANGE [COLUMN] (a new name or
 * comment, the type kept), ADD COLUMNS, ADD CONSTRAINT ... FOREIGN KEY and DROP CONSTRAINT; {@code ALTER VIEW ... RENAME TO}. The rest — a column's
 * new type or place, REPLACE COLUMNS, partitions (but ADD and DROP PARTITION, which {@code DdlAnalyzer} takes), buckets,
 * file formats — is refused by name.
 * The statement is checked against the table when it runs ({@code DataDefinition}).
 */
final class AlterTables {
    /**
     * Properties fixed when the table is created: how its rows are keyed, indexed and kept.
     * Changing them would describe rows the nodes do not hold.
     */
    static final Set<String> FIXED_PROPERTIES = Set.of(DdlAnalyzer.PRIMARY_KEY_PROPERTY, DdlAnalyzer.INDEXES_PROPERTY,
            DdlAnalyzer.TRANSACTIONAL_PROPERTY);

    private AlterTables() {
    }

    static DdlStatement analyze(Catalog catalog, ASTNode n, String[] name) {
        ASTNode change = Ast.child(n, 1);
        if (n.getChildCount() > 2 || n.getType() == TOK_ALTERVIEW && change.getType() != TOK_ALTERVIEW_RENAME) {
            ASTNode last = Ast.child(n, n.getChildCount() - 1);
            throw Ast.notSupported((n.getType() == TOK_ALTERVIEW ? "ALTER VIEW " : "ALTER TABLE ... ")
                    + (last.getType() == TOK_PARTSPEC ? "PARTITION" : described(last)), last);
        }
        return switch (change.getType()) {
            case TOK_ALTERTABLE_RENAME, TOK_ALTERVIEW_RENAME -> {
                ASTNode to = Ast.child(change, 0);
                String db = to.getChildCount() > 1 ? Ast.name(Ast.child(to, 0)) : name[0];
                String newName = Identifiers.objectName(n.getType() == TOK_ALTERVIEW ? "view" : "table",
                        Ast.name(Ast.child(to, to.getChildCount() - 1)), to);
                yield new DdlStatement.Rename(name[0], name[1], db, newName, n.getType() == TOK_ALTERVIEW);
            }
            case TOK_ALTERTABLE_PROPERTIES -> new DdlStatement.AlterProperties(name[0], name[1], properties(change),
                    List.of(), false);
            case TOK_ALTERTABLE_DROPPROPERTIES -> new DdlStatement.AlterProperties(name[0], name[1], Map.of(),
                    List.copyOf(properties(change).keySet()), Ast.find(change, TOK_IFEXISTS) != null);
            case TOK_ALTERTABLE_RENAMECOL -> changeColumn(change, name);
            case TOK_ALTERTABLE_ADDCOLS -> addColumns(change, name);
            case TOK_ALTERTABLE_ADDCONSTRAINT -> addConstraint(catalog, change, name);
            case TOK_ALTERTABLE_DROPCONSTRAINT -> new DdlStatement.DropConstraint(name[0], name[1],
                    Ast.name(Ast.child(change, 0)));
            case TOK_ALTERTABLE_REPLACECOLS -> throw Ast.notSupported("ALTER TABLE ... REPLACE COLUMNS (it drops or "
                    + "retypes columns the nodes' rows hold; ADD COLUMNS and CHANGE COLUMN renaming a column run)", change);
            default -> throw Ast.notSupported("ALTER TABLE ... " + described(change), change);
        };
    }

    /** The ALTER TABLE forms refused, as SQL writes them. */
    private static final Map<String, String> WRITTEN = Map.ofEntries(
            Map.entry("RENAMEPART", "PARTITION ... RENAME (only tables held in files have partitions)"),
            Map.entry("EXCHANGEPARTITION", "EXCHANGE PARTITION (only tables held in files have partitions)"),
            Map.entry("CLUSTER_SORT", "CLUSTERED BY"),
            Map.entry("BUCKETS", "INTO n BUCKETS"),
            Map.entry("FILEFORMAT", "SET FILEFORMAT"),
            Map.entry("LOCATION", "SET LOCATION (tables are stored on the cluster's nodes)"),
            Map.entry("SERIALIZER", "SET SERDE"),
            Map.entry("SERDEPROPERTIES", "SET SERDEPROPERTIES"),
            Map.entry("UPDATECOLUMNS", "UPDATE COLUMNS"),
            Map.entry("SKEWED", "SKEWED BY"),
            Map.entry("OWNER", "SET OWNER"));

    private static String described(ASTNode change) {
        String token = change.getText().toUpperCase(java.util.Locale.ROOT).replaceFirst("^TOK_(ALTERTABLE|ALTERVIEW)_", "");
        return WRITTEN.getOrDefault(token, token.replace("TOK_", "").replace('_', ' '));
    }

    private static Map<String, String> properties(ASTNode change) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ASTNode p : Ast.children(Ast.child(Ast.child(change, 0), 0))) {
            String key = Ast.unquote(Ast.child(p, 0).getText());
            if (FIXED_PROPERTIES.contains(key)) {
                throw Ast.notSupported("changing table property '" + key + "' (it is fixed when the table is created: "
                        + "the nodes keep the rows by it)", p);
            }
            String value = Ast.child(p, 1).getType() == TOK_NULL ? null : Ast.unquote(Ast.child(p, 1).getText());
            if (key.equals(DdlAnalyzer.SPLIT_POLICY_PROPERTY) && value != null) {
                DdlAnalyzer.splitPolicy(value, p);
            }
            out.put(key, value);
        }
        return out;
    }

    /** {@code CHANGE [COLUMN] old new type [COMMENT '...'] [FIRST | AFTER c] [CASCADE | RESTRICT]}. */
    private static DdlStatement changeColumn(ASTNode change, String[] name) {
        String column = Ast.name(Ast.child(change, 0));
        String newName = Identifiers.columnName(Ast.name(Ast.child(change, 1)), change);
        ASTNode type = Ast.child(change, 2);
        String comment = null;
        for (ASTNode c : Ast.children(change).subList(3, change.getChildCount())) {
            switch (c.getType()) {
                case StringLiteral -> comment = Ast.unquote(c.getText());
                case TOK_CASCADE, TOK_RESTRICT -> { // which partitions change too: a table here has none
                }
                default -> throw Ast.notSupported("ALTER TABLE ... CHANGE COLUMN moving a column ("
                        + c.getText().replace("TOK_ALTERTABLE_CHANGECOL_AFTER_POSITION", "AFTER").toUpperCase(java.util.Locale.ROOT)
                        + "): the nodes' rows keep their columns in place", c);
            }
        }
        if (!Types.isTypeToken(type)) {
            throw Types.notAColumnType(type);
        }
        // the type is checked against the column's when the statement runs
        return new DdlStatement.ChangeColumn(name[0], name[1], column, newName, Types.of(type), comment);
    }

    /** {@code ADD CONSTRAINT name FOREIGN KEY ...}: checked as CREATE TABLE checks one. */
    private static DdlStatement addConstraint(Catalog catalog, ASTNode change, String[] name) {
        ASTNode constraint = Ast.child(change, 0);
        if (constraint.getType() != TOK_FOREIGN_KEY) {
            throw Ast.notSupported("ALTER TABLE ... ADD CONSTRAINT " + Ast.asWritten(constraint.getText())
                    + (constraint.getType() == TOK_PRIMARY_KEY ? " (the primary key is fixed when the table is created: "
                    + "the rows are stored by it)" : ""), constraint);
        }
        TableInfo table = catalog.table(name[0], name[1]).orElseThrow(() -> Ast.error(SqlException.UNKNOWN_TABLE,
                "table not found: " + name[0] + "." + name[1], change));
        ConstraintClauses clauses = new ConstraintClauses(catalog, name[0]);
        clauses.primaryKey().addAll(table.primaryKey());
        clauses.foreignKey(constraint);
        return new DdlStatement.AddForeignKey(name[0], name[1],
                clauses.build(name[1], table.columns()).foreignKeys().get(0));
    }

    private static DdlStatement addColumns(ASTNode change, String[] name) {
        List<ResultColumn> columns = new ArrayList<>();
        for (ASTNode c : Ast.children(Ast.child(change, 0))) {
            if (c.getType() != TOK_TABCOL) {
                throw Ast.notSupported("a constraint in ADD COLUMNS", c);
            }
            ASTNode type = Ast.child(c, 1);
            if (!Types.isTypeToken(type)) {
                throw Types.notAColumnType(type);
            }
            String comment = "";
            for (ASTNode after : Ast.children(c).subList(2, c.getChildCount())) {
                if (after.getType() != StringLiteral) {
                    throw Ast.notSupported("a constraint in ADD COLUMNS", after);
                }
                comment = Ast.unquote(after.getText());
            }
            SqlType sqlType = Types.of(type);
            sqlType.storedType(); // refuses a type the nodes cannot store, now
            columns.add(new ResultColumn(Identifiers.columnName(Ast.name(Ast.child(c, 0)), c), sqlType, comment));
        }
        for (ASTNode cascade : Ast.children(change).subList(1, change.getChildCount())) {
            if (cascade.getType() != TOK_CASCADE && cascade.getType() != TOK_RESTRICT) {
                throw Ast.notSupported("ADD COLUMNS clause " + Ast.described(cascade), cascade);
            }
        }
        return new DdlStatement.AddColumns(name[0], name[1], columns);
    }
}
