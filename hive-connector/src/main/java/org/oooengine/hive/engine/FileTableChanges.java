package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.oooengine.core.cluster.ClusterSession;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.types.Column;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.files.FileTableWriter;
import org.oooengine.hive.files.PartitionDirectories;
import org.oooengine.hive.files.TableFiles;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.hive.sql.ddl.DdlStatement;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * What changes tables held in files, whichever catalog holds them: INSERT, ADD PARTITION and MSCK
 * REPAIR TABLE. The table's location is judged again first, as when the table was created (the
 * operator may have narrowed the allowed directories since). An INSERT has the nodes write the
 * files, committed all together or not at all ({@link FileTableWriter}); a catalog that lists
 * partitions itself (a Hive metastore) is then told of the partitions written or added.
 */
final class FileTableChanges {
    private static final org.apache.logging.log4j.Logger LOG = org.apache.logging.log4j.LogManager.getLogger(FileTableChanges.class);

    /** Told the partition directories a statement wrote or made (relative to the table's location). */
    @FunctionalInterface
    interface NewPartitions {
        /** For a catalog that finds partitions by listing the directories. */
        NewPartitions LISTED = (table, directories) -> { };

        void written(TableInfo table, List<String> directories);
    }

    /** Told to forget partitions. */
    @FunctionalInterface
    interface DroppedPartitions {
        /** For a catalog that finds partitions by listing the directories: it has none to forget. */
        DroppedPartitions LISTED = (table, specs, ifExists, purge) -> {
            throw new SqlException(SqlException.NOT_SUPPORTED, "ALTER TABLE " + table.database() + "." + table.name()
                    + " DROP PARTITION: the embedded catalog finds a table's partitions by listing its directories "
                    + "(remove the partition's directory, or keep the table in a Hive metastore, ooo.catalog=hms)");
        };

        /**
         * Forgets the partitions whose values (as Hive writes them in text) equal some spec's, by
         * partition column; none matching a spec is an error unless {@code ifExists}. Returns how many.
         */
        long drop(TableInfo table, List<Map<String, String>> specs, boolean ifExists, boolean purge);
    }

    private final ClusterSession cluster;
    private final LoadableFiles loadable;
    private final HadoopSettings hadoop;
    private final NewPartitions partitions;
    private final DroppedPartitions dropped;

    FileTableChanges(ClusterSession cluster, LoadableFiles loadable, HadoopSettings hadoop, NewPartitions partitions,
                     DroppedPartitions dropped) {
        this.cluster = cluster;
        this.loadable = loadable;
        this.hadoop = hadoop;
        this.partitions = partitions;
        this.dropped = dropped;
    }

    /**
     * Whether {@code statement} changes tables held in files only: an INSERT (or a multi-table one)
     * into them, ADD PARTITION, MSCK REPAIR TABLE.
     */
    static boolean changesFilesOnly(DdlStatement statement) {
        if (statement instanceof DdlStatement.Insert s) {
            return FileTableReader.holds(s.target());
        }
        return statement instanceof DdlStatement.MultiInsert m
                ? m.inserts().stream().allMatch(i -> FileTableReader.holds(i.target()))
                : statement instanceof DdlStatement.AddPartitions || statement instanceof DdlStatement.RepairTable
                || statement instanceof DdlStatement.DropPartitions;
    }

    /** Runs a statement {@link #changesFilesOnly} accepts; an INSERT's queries all read first, then each table written in turn. */
    StatementResult run(DdlStatement statement, Map<String, String> settings, PlanRows rowsOf,
                        BooleanSupplier cancelled) {
        if (statement instanceof DdlStatement.AddPartitions s) {
            return StatementResult.update(addPartitions(s, settings));
        } else if (statement instanceof DdlStatement.RepairTable s) {
            return StatementResult.update(repair(s, settings));
        } else if (statement instanceof DdlStatement.DropPartitions s) {
            return StatementResult.update(dropped.drop(s.target(), texts(s), s.ifExists(), s.purge()));
        }
        if (statement instanceof DdlStatement.Insert s) {
            return StatementResult.update(insertFromQuery(s, rowsOf, settings, cancelled));
        }
        List<DdlStatement.Insert> inserts = ((DdlStatement.MultiInsert) statement).inserts();
        List<List<Object[]>> rows = inserts.stream().map(i -> rowsOf.apply(i.rows())).toList();
        long written = 0;
        for (int i = 0; i < inserts.size(); i++) {
            written += insert(inserts.get(i), rows.get(i), settings, cancelled);
        }
        return StatementResult.update(written);
    }

    /**
     * Writes the rows of {@code s}'s query as it says: the nodes write them where its plan ends
     * on them, else they come here first. Returns how many.
     */
    long insertFromQuery(DdlStatement.Insert s, PlanRows rowsOf, Map<String, String> settings, BooleanSupplier cancelled) {
        return insert(s, settings, cancelled, (writer, staticStored) -> writer.insertFromNodes(s.target(), s.overwrite(),
                        staticStored, output -> rowsOf.writtenOnNodes(s.rows(), output), cancelled)
                .orElseGet(() -> writer.insert(s.target(), stored(s.target(), rowsOf.apply(s.rows())), s.overwrite(),
                        staticStored, cancelled)));
    }

    /** Writes {@code rows} (SQL values of every column of the target) as {@code s} says; returns how many. */
    long insert(DdlStatement.Insert s, List<Object[]> rows, Map<String, String> settings, BooleanSupplier cancelled) {
        return insert(s, settings, cancelled, (writer, staticStored) -> writer.insert(s.target(), stored(s.target(), rows),
                s.overwrite(), staticStored, cancelled));
    }

    /** How an INSERT's rows are written, by a writer for its table, with the stored values of its static partition. */
    private interface Writing {
        FileTableWriter.Written write(FileTableWriter writer, List<Object> staticPartition);
    }

    private long insert(DdlStatement.Insert s, Map<String, String> settings, BooleanSupplier cancelled, Writing writing) {
        TableInfo target = s.target();
        String what = "INSERT into " + target.database() + "." + target.name();
        Configuration conf = judged(what, target, settings);
        int firstKey = target.columns().size() - PartitionDirectories.keys(target).size();
        List<Object> staticStored = new ArrayList<>();
        for (int k = 0; k < s.staticPartition().size(); k++) {
            staticStored.add(target.columns().get(firstKey + k).type().toStored(s.staticPartition().get(k)));
        }
        List<String> nodes = cluster.spec().nodes().stream().map(n -> n.id()).toList();
        FileTableWriter.Written written;
        try {
            written = writing.write(new FileTableWriter(conf, cluster.peers(), nodes), staticStored);
        } catch (SqlException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SqlException(Faults.state(e), what + " failed: " + e.getMessage(), e);
        }
        if (firstKey < target.columns().size()) {
            partitions.written(target, written.directories());
        }
        return written.rows();
    }

    /** Where CREATE TABLE ... AS SELECT writes its table's files, and whether the statement made that directory. */
    record NewLocation(String path, boolean made) {
    }

    /**
     * The location of the table {@code s} creates with its query's rows, made when missing: one
     * SQL may write (as LOAD DATA's files are judged) that holds no files yet.
     */
    NewLocation newLocation(DdlStatement.CreateExternalTable s, Configuration conf) {
        String what = "CREATE TABLE " + s.name() + " AS SELECT";
        boolean made = !exists(s.location(), conf);
        String location = loadable.newTableLocation(what, s.location(), conf);
        if (!TableFiles.files(location, conf).isEmpty()) {
            throw new SqlException(SqlException.ALREADY_EXISTS, what + ": " + location + " holds files already; "
                    + "CREATE EXTERNAL TABLE reads them, INSERT adds to them");
        }
        return new NewLocation(location, made);
    }

    /**
     * CREATE TABLE ... AS SELECT's rows written at {@code location} as {@link #insertFromQuery} writes them,
     * then {@code enterTable} run (the catalog told of the table, once its files are there). When
     * either fails nothing of the statement stays: the directory it made, or the files it wrote
     * into one that was there. Returns how many rows it wrote.
     */
    long insertCreating(DdlStatement.Insert s, NewLocation location, PlanRows rowsOf, Map<String, String> settings,
                        BooleanSupplier cancelled, Runnable enterTable) {
        try {
            long written = insertFromQuery(s, rowsOf, settings, cancelled);
            enterTable.run();
            return written;
        } catch (RuntimeException e) {
            Configuration conf = hadoop.apply(new Configuration(), settings);
            deleteQuietly(location.made() ? List.of(new Path(location.path()))
                    : TableFiles.files(location.path(), conf), conf);
            throw e;
        }
    }

    /** Whether {@code location} (as the statement gave it) names something that exists; false where it cannot tell. */
    private static boolean exists(String location, Configuration conf) {
        try {
            Path path = new Path(location);
            return path.getFileSystem(conf).exists(path);
        } catch (IOException | RuntimeException e) {
            return false; // newTableLocation judges it and says why
        }
    }

    private static void deleteQuietly(List<Path> paths, Configuration conf) {
        for (Path path : paths) {
            try {
                path.getFileSystem(conf).delete(path, true);
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not delete {} after a failed CREATE TABLE: {}", path, e.toString());
            }
        }
    }

    /** Rows of SQL values of every column of {@code target} as it stores them. */
    private static List<Object[]> stored(TableInfo target, List<Object[]> rows) {
        List<Object[]> stored = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] values = new Object[row.length];
            for (int c = 0; c < values.length; c++) {
                values[c] = target.columns().get(c).type().toStored(row[c]);
            }
            stored.add(values);
        }
        return stored;
    }

    /**
     * ADD PARTITION: each partition's directory made under the table's location, then entered in
     * the catalog; one that exists already is an error unless IF NOT EXISTS. Returns how many there are.
     */
    long addPartitions(DdlStatement.AddPartitions s, Map<String, String> settings) {
        TableInfo target = s.target();
        String what = "ALTER TABLE " + target.database() + "." + target.name() + " ADD PARTITION";
        Configuration conf = judged(what, target, settings);
        List<String> keys = PartitionDirectories.keys(target);
        int firstKey = target.columns().size() - keys.size();
        List<Column> columns = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            var c = target.columns().get(firstKey + k);
            columns.add(new Column(c.name(), c.type().storedType()));
        }
        Path location = new Path(target.storage());
        List<String> made = new ArrayList<>();
        try {
            FileSystem fs = location.getFileSystem(conf);
            for (List<Object> values : s.partitions()) {
                List<Object> stored = new ArrayList<>();
                for (int k = 0; k < values.size(); k++) {
                    stored.add(target.columns().get(firstKey + k).type().toStored(values.get(k)));
                }
                String dir = PartitionDirectories.directory(keys, columns, stored);
                Path path = new Path(location, dir);
                if (!fs.exists(path)) {
                    fs.mkdirs(path);
                } else if (!s.ifNotExists()) {
                    throw new SqlException(SqlException.ALREADY_EXISTS, what + ": partition " + dir + " exists");
                }
                made.add(dir);
            }
        } catch (IOException e) {
            throw new SqlException(SqlException.GENERAL, what + " failed: " + e.getMessage(), e);
        }
        partitions.written(target, made);
        return made.size();
    }

    /** DROP PARTITION's specs as Hive writes partition values in text (a directory's name, unescaped). */
    private static List<Map<String, String>> texts(DdlStatement.DropPartitions s) {
        TableInfo target = s.target();
        List<String> keys = PartitionDirectories.keys(target);
        int firstKey = target.columns().size() - keys.size();
        List<Map<String, String>> out = new ArrayList<>();
        for (Map<String, Object> spec : s.specs()) {
            Map<String, String> texts = new java.util.LinkedHashMap<>();
            spec.forEach((key, value) -> {
                var type = target.columns().get(firstKey + keys.indexOf(key)).type();
                texts.put(key, type.storedType().format(type.toStored(value)));
            });
            out.add(texts);
        }
        return out;
    }

    /** MSCK REPAIR TABLE: every partition directory under the table's location entered in the catalog; returns how many there are. */
    long repair(DdlStatement.RepairTable s, Map<String, String> settings) {
        TableInfo target = s.target();
        Configuration conf = judged("MSCK REPAIR TABLE " + target.database() + "." + target.name(), target, settings);
        List<String> found = PartitionDirectories.directories(target, conf);
        partitions.written(target, found);
        return found.size();
    }

    /** The configuration to reach the table's files, once its location is found to be one SQL may use. */
    private Configuration judged(String what, TableInfo target, Map<String, String> settings) {
        Configuration conf = hadoop.apply(new Configuration(), settings);
        loadable.tableLocation(what, target.storage(), conf);
        return conf;
    }
}
