package org.oooengine.hive.engine;

import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.oooengine.core.types.DataType;
import org.oooengine.optimizer.catalog.TableInfo;
import org.oooengine.hive.files.FileTableReader;
import org.oooengine.hive.sql.Cancellation;
import org.oooengine.hive.sql.exec.TableReader;
import org.oooengine.mapreduce.FileSource;
import org.oooengine.mapreduce.JoinJobs;

/**
 * Reads a table held in files (a Hive metastore's) with a MapReduce scan job over its files —
 * every partition's location in its own layout, split as Hadoop splits files — and streams the
 * rows the job wrote back to the statement, as {@link MapReduceTableReader} does for a cluster table.
 */
final class MapReduceFileTableReader implements TableReader {
    private final FileTableReader files;
    private final MapReduceJobs jobs;

    /** @param files where tables' files are: the reader daemon mode uses, whose file system settings locate them */
    MapReduceFileTableReader(FileTableReader files, MapReduceJobs jobs) {
        this.files = files;
        this.jobs = jobs;
    }

    @Override
    public void scan(TableInfo table, BitSet needed, Cancellation cancel, Consumer<Object[]> sink) {
        String name = table.database() + "." + table.name();
        List<DataType> types = FileTableReader.storedTypes(table);
        List<FileSource> sources = files.sources(table);
        if (sources.stream().anyMatch(s -> s.format() == org.oooengine.mapreduce.FileFormat.PARQUET)) {
            throw new org.oooengine.core.sql.SqlException(org.oooengine.core.sql.SqlException.NOT_SUPPORTED, "table " + name
                    + " is held in Parquet files, which MapReduce jobs do not read yet (daemon mode does: "
                    + "SET ooo.execution.mode=daemon)");
        }
        StoredRows rows = StoredRows.of(types);
        jobs.run("scan of " + name, cancel,
                (conf, spec, secret, output) -> JoinJobs.scanFiles(conf, name, types, sources, output),
                stored -> sink.accept(rows.toSql(stored, needed)));
    }
}
