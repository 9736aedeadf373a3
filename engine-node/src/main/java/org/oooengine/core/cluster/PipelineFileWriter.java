package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.oooengine.core.sql.SqlType;

/**
 * The end of a pipeline run on a node that writes its rows into files ({@link FileOutput}): a file
 * for each combination of partition values met, opened when its first row comes. At most
 * {@link #MAX_OPEN} are open at once; the one written least recently is completed to make room
 * (its partition gets another file if more of its rows come). {@link #finish} completes them all
 * and hands on a record of each file; closing first deletes what was written.
 */
final class PipelineFileWriter implements Consumer<List<Object[]>>, AutoCloseable {
    /** Files open at once on one run: each holds a format's buffers (an ORC stripe, a Parquet row group). */
    static final int MAX_OPEN = 8;

    private final FileOutput output;
    private final RowFileWriters writers;
    private final String names;
    private final SqlType[] types;
    private final int fileColumns;
    /** Open files by their partition values, least recently written first. */
    private final LinkedHashMap<List<Object>, Open> open = new LinkedHashMap<>(16, 0.75f, true);
    private final List<Object[]> written = new ArrayList<>();
    /** The paths of the files completed (their writers let go: they hold a format's buffers), deleted when the run does not finish. */
    private final List<String> completed = new ArrayList<>();
    private int files;
    private boolean finished;

    private record Open(String path, List<Object> values, RowFileWriters.RowFileWriter writer, long[] rows) {
    }

    PipelineFileWriter(FileOutput output, String nodeId, RowFileWriters writers) {
        this.output = output;
        this.writers = writers;
        // unique among the runs of every node: a node may run the pipeline over two partitions at once
        this.names = "part-" + output.statement() + "-" + nodeId.replaceAll("[^A-Za-z0-9_-]", "_") + "-"
                + UUID.randomUUID().toString().substring(0, 8) + "-";
        this.fileColumns = output.fileSchema().size();
        this.types = output.fileSchema().columns().stream().map(c -> SqlType.of(c.type())).toArray(SqlType[]::new);
    }

    /** Writes rows of SQL values: the file's columns, then the partition values. */
    @Override
    public synchronized void accept(List<Object[]> rows) {
        Map<List<Object>, List<Object[]>> byPartition = new LinkedHashMap<>();
        for (Object[] row : rows) {
            if (row.length != fileColumns + output.partitionKeys()) {
                throw new IllegalArgumentException("a row of " + row.length + " columns written into files of "
                        + fileColumns + " and " + output.partitionKeys() + " partition keys");
            }
            Object[] stored = new Object[fileColumns];
            for (int c = 0; c < fileColumns; c++) {
                stored[c] = types[c].toStored(row[c]);
            }
            List<Object> values = output.partitionKeys() == 0 ? List.of()
                    : Arrays.asList(Arrays.copyOfRange(row, fileColumns, row.length));
            byPartition.computeIfAbsent(values, v -> new ArrayList<>()).add(stored);
        }
        byPartition.forEach((values, stored) -> {
            Open file = fileFor(values);
            file.writer().write(stored);
            file.rows()[0] += stored.size();
        });
    }

    private Open fileFor(List<Object> values) {
        Open file = open.get(values);
        if (file != null) {
            return file;
        }
        if (open.size() >= MAX_OPEN) {
            Iterator<Open> eldest = open.values().iterator();
            Open done = eldest.next();
            eldest.remove();
            complete(done);
        }
        String path = output.directory() + "/" + names + (files++) + FileOutput.suffix(output.layout());
        file = new Open(path, values, writers.create(path, output.layout(), output.fileSchema()), new long[1]);
        open.put(values, file);
        return file;
    }

    private void complete(Open file) {
        long bytes;
        try {
            bytes = file.writer().finish();
        } catch (RuntimeException e) {
            file.writer().abort();
            throw e;
        }
        completed.add(file.path());
        Object[] record = new Object[FileOutput.RECORD_COLUMNS + file.values().size()];
        record[0] = file.path();
        record[1] = file.rows()[0];
        record[2] = bytes;
        for (int k = 0; k < file.values().size(); k++) {
            record[FileOutput.RECORD_COLUMNS + k] = file.values().get(k);
        }
        written.add(record);
    }

    /** Completes every file still open and hands {@code records} a record of each file written. */
    synchronized void finish(Consumer<Object[]> records) {
        for (Iterator<Open> it = open.values().iterator(); it.hasNext(); ) {
            Open file = it.next();
            it.remove();
            complete(file);
        }
        finished = true;
        written.forEach(records);
    }

    /** Unless finished, stops writing and deletes every file of the run, open or completed. */
    @Override
    public synchronized void close() {
        if (finished) {
            return;
        }
        open.values().forEach(f -> f.writer().abort());
        open.clear();
        completed.forEach(writers::delete);
        completed.clear();
    }
}
