package org.oooengine.hive.sql.ddl;

import java.util.List;
import java.util.Map;
import org.oooengine.core.sql.SqlType;
import org.oooengine.hive.catalog.TableConstraints;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.optimizer.catalog.ResultColumn;
import org.oooengine.optimizer.rel.RelNode;

/** A statement that changes the catalog or a table's rows, as the analyzer understood it. */
public sealed interface DdlStatement {
    record CreateDatabase(String name, String comment, boolean ifNotExists) implements DdlStatement {
    }

    record DropDatabase(String name, boolean ifExists, boolean cascade) implements DdlStatement {
    }

    /**
     * CREATE TABLE, with {@code asSelect} the query of CREATE TABLE ... AS SELECT (else null).
     *
     * @param primaryKey  empty when none was declared: the table gets a hidden row id as its key
     * @param constraints the primary key's name and the foreign keys, kept and not enforced
     */
    record CreateTable(String database, String name, List<ResultColumn> columns, List<String> primaryKey,
                       List<String> indexedColumns, Map<String, String> properties, String comment, boolean ifNotExists,
                       RelNode asSelect, TableConstraints constraints) implements DdlStatement {
    }

    /**
     * CREATE EXTERNAL TABLE: rows held in the files at {@code location}, in the layout
     * {@code properties} name (as a table held in files carries it), partitioned by its last
     * columns, {@code partitionKeys}, in Hive's directories {@code key=value} (none: not partitioned).
     * With {@code asSelect} (CREATE TABLE ... LOCATION ... AS SELECT) the query's rows are written
     * there first; null otherwise. {@code constraints} hold its primary key as declared (never
     * checked against the files) and whether the planner may rely on it.
     */
    record CreateExternalTable(String database, String name, List<ResultColumn> columns, List<String> partitionKeys,
                               String location, Map<String, String> properties, String comment, boolean ifNotExists,
                               RelNode asSelect, TableConstraints constraints)
            implements DdlStatement {
    }

    record DropTable(String database, String name, boolean ifExists) implements DdlStatement {
    }

    /** ALTER TABLE (or ALTER VIEW, {@code view}) ... RENAME TO: the same rows, or the same view, under another name. */
    record Rename(String database, String name, String newDatabase, String newName, boolean view) implements DdlStatement {
    }

    /**
     * ALTER TABLE ... SET TBLPROPERTIES ({@code set}) or UNSET TBLPROPERTIES [IF EXISTS] ({@code
     * unset}); Hive's {@code 'comment'} property is the table's comment.
     */
    record AlterProperties(String database, String name, Map<String, String> set, List<String> unset,
                           boolean ifExists) implements DdlStatement {
    }

    /**
     * ALTER TABLE ... CHANGE [COLUMN] column newName type [COMMENT ...], the type the column's own;
     * {@code comment} null keeps the column's.
     */
    record ChangeColumn(String database, String name, String column, String newName, SqlType type, String comment)
            implements DdlStatement {
    }

    /** ALTER TABLE ... ADD CONSTRAINT ... FOREIGN KEY ... DISABLE NOVALIDATE, checked against the tables already. */
    record AddForeignKey(String database, String name, TableConstraints.ForeignKey key) implements DdlStatement {
    }

    /** ALTER TABLE ... DROP CONSTRAINT name. */
    record DropConstraint(String database, String name, String constraint) implements DdlStatement {
    }

    /** ALTER TABLE ... ADD COLUMNS (...): the table's rows read NULL in them. */
    record AddColumns(String database, String name, List<ResultColumn> columns) implements DdlStatement {
    }

    /**
     * CREATE VIEW, or ALTER VIEW ... AS ({@code mustExist}): {@code statement} is the statement as
     * written, whose query is analysed again wherever the view is read.
     */
    record CreateView(String database, String name, List<ResultColumn> columns, String statement, String comment,
                      boolean ifNotExists, boolean orReplace, boolean mustExist) implements DdlStatement {
    }

    record DropView(String database, String name, boolean ifExists) implements DdlStatement {
    }

    /** INSERT INTO (or OVERWRITE) a table; {@code rows} yields the table's columns in order and types. */
    /**
     * INSERT: {@code rows} yields every column of the table in order. Into a partitioned table held
     * in files, {@code staticPartition} holds the values its PARTITION clause gives the leading
     * partition columns (SQL values; none: every partition column's value comes from the rows).
     */
    record Insert(TableInfo target, RelNode rows, boolean overwrite, List<Object> staticPartition) implements DdlStatement {
        public Insert {
            staticPartition = List.copyOf(staticPartition);
        }

        public Insert(TableInfo target, RelNode rows, boolean overwrite) {
            this(target, rows, overwrite, List.of());
        }
    }

    /** A multi-table INSERT: each insert's rows, all read before any is written. */
    record MultiInsert(List<Insert> inserts) implements DdlStatement {
        public MultiInsert {
            inserts = List.copyOf(inserts);
        }
    }

    /**
     * UPDATE: {@code rows} yields each matching row as it will be (the table's columns in order and
     * types), written in place over the row of the same primary key.
     */
    record Update(TableInfo target, RelNode rows) implements DdlStatement {
    }

    /** DELETE: {@code rows} yields the matching rows (the table's columns), deleted in place by primary key. */
    record Delete(TableInfo target, RelNode rows) implements DdlStatement {
    }

    /**
     * MERGE INTO a transactional table: each action's {@code rows} yields the rows it changes (the
     * table's columns in order and types) — the rows as they will be for an UPDATE, as they are for
     * a DELETE, the new rows for an INSERT — each WHEN clause's query excluding the rows an earlier
     * clause of its kind takes.
     */
    record Merge(TableInfo target, List<MergeAction> actions) implements DdlStatement {
    }

    /** One WHEN clause of a MERGE. */
    record MergeAction(Kind kind, RelNode rows) {
        public enum Kind { UPDATE, DELETE, INSERT }
    }

    /**
     * ALTER TABLE ... ADD [IF NOT EXISTS] PARTITION (...) ...: partitions of a table held in files,
     * each the SQL values of every partition column, made as empty directories (and entered in a
     * metastore that lists partitions).
     */
    record AddPartitions(TableInfo target, List<List<Object>> partitions, boolean ifNotExists) implements DdlStatement {
        public AddPartitions {
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * ALTER TABLE ... DROP [IF EXISTS] PARTITION (k = v, ...) [, PARTITION (...)] [PURGE]: the
     * partitions of a table held in files whose values equal each spec's (a spec may name some of
     * the partition columns: every partition it matches), as SQL values by partition column name.
     * The catalog forgets them; their files go where it deletes a managed table's files.
     */
    record DropPartitions(TableInfo target, List<java.util.Map<String, Object>> specs, boolean ifExists, boolean purge)
            implements DdlStatement {
        public DropPartitions {
            specs = specs.stream().map(java.util.Map::copyOf).toList();
        }
    }

    /**
     * MSCK [REPAIR] TABLE: the partition directories under a table's location that its catalog
     * does not list yet, entered in it (an external table's partitions are always listed).
     */
    record RepairTable(TableInfo target) implements DdlStatement {
    }

    /**
     * ANALYZE TABLE ... COMPUTE STATISTICS: the table's rows counted, and with FOR COLUMNS the
     * distinct values and NULLs of {@code columns} (every column when it names none), kept for the
     * planner. NOSCAN ({@code scan} false) counts nothing: what it would gather (files and their
     * sizes) the planner reads from the files themselves.
     */
    record AnalyzeTable(TableInfo target, boolean scan, List<String> columns) implements DdlStatement {
        public AnalyzeTable {
            columns = List.copyOf(columns);
        }
    }

    /** LOAD DATA [LOCAL] INPATH: the file's (or directory's) rows into the table, read in the table's file format. */
    record LoadData(String path, boolean local, boolean overwrite, TableInfo target) implements DdlStatement {
    }
}
