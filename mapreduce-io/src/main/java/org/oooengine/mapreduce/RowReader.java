package org.oooengine.mapreduce;

import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.RecordReader;

/** A reader of the engine's rows: no key, the current row as the value, reused from row to row. */
abstract class RowReader extends RecordReader<NullWritable, RowWritable> {
    protected final RowWritable row = new RowWritable();

    @Override
    public NullWritable getCurrentKey() {
        return NullWritable.get();
    }

    @Override
    public RowWritable getCurrentValue() {
        return row;
    }
}
