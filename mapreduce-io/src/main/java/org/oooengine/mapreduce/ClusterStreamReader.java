package org.oooengine.mapreduce;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.oooengine.core.cluster.ClusterSession;

/**
 * A record reader over a stream of row chunks from one node. The stream pushes chunks, the task
 * pulls records: a small bounded queue joins the two, and when it is full the network thread
 * waits, so the node slows to the task's pace instead of anyone buffering a partition.
 */
abstract class ClusterStreamReader extends RowReader {
    private static final int QUEUED_CHUNKS = 8;
    private static final List<Object[]> END = List.of();

    private final BlockingQueue<List<Object[]>> queue = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
    private ClusterSession session;
    private CompletableFuture<?> stream;
    private Iterator<Object[]> chunk = Collections.emptyIterator();
    private PartitionSplit split;
    private TaskAttemptContext task;
    private long timeoutMillis;
    private volatile boolean closed;
    private boolean ended;

    /** Starts the stream of {@code split}'s rows; chunks go to {@code rows}, in order, on one thread at a time. */
    protected abstract CompletableFuture<?> start(ClusterSession session, PartitionSplit split, TaskAttemptContext context,
                                                  Consumer<List<Object[]>> rows);

    @Override
    public void initialize(InputSplit inputSplit, TaskAttemptContext context) throws IOException {
        split = (PartitionSplit) inputSplit;
        task = context;
        timeoutMillis = context.getConfiguration().getLong(ClusterJobConf.TIMEOUT_MS, ClusterJobConf.DEFAULT_TIMEOUT_MS);
        try {
            session = ClusterJobConf.open(context, "task-" + context.getTaskAttemptID());
            stream = start(session, split, context, this::offer);
        } catch (RuntimeException e) {
            TaskFailures.note(context, e);
            throw e;
        }
        // The end marker follows the last chunk: chunks are delivered before the stream completes.
        stream.whenComplete((v, e) -> offer(END));
    }

    private void offer(List<Object[]> rows) {
        if (rows.isEmpty() && rows != END) {
            return;
        }
        try {
            while (!closed && !queue.offer(rows, 100, TimeUnit.MILLISECONDS)) {
                // the task has not taken the earlier chunks yet
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    protected PartitionSplit split() {
        return split;
    }

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
        try {
            return nextRow();
        } catch (IOException | RuntimeException e) {
            TaskFailures.note(task, e);
            throw e;
        }
    }

    private boolean nextRow() throws IOException, InterruptedException {
        while (!chunk.hasNext()) {
            if (ended) {
                return false;
            }
            List<Object[]> next = queue.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            if (next == null) {
                throw new IOException("no rows from node " + split.node(task.getTaskAttemptID().getId()) + " for " + timeoutMillis + " ms: " + split);
            }
            if (next == END) {
                ended = true;
                checkFailure();
            }
            chunk = next.iterator();
        }
        row.set(chunk.next());
        countRow();
        return true;
    }

    /** Called for each row handed to the task. */
    protected void countRow() {
    }

    private void checkFailure() throws IOException {
        try {
            stream.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException("reading " + split + " failed: " + cause.getMessage(), cause);
        }
    }

    @Override
    public void close() {
        closed = true;
        if (stream != null && !stream.isDone()) {
            stream.cancel(false);
        }
        if (session != null) {
            session.close();
        }
    }
}
