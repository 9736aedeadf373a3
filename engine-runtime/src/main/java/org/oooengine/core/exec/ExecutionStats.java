package org.oooengine.core.exec;

import java.util.function.Supplier;
import org.oooengine.core.ooo.TaskScheduler;
import org.oooengine.core.store.Store;

/**
 * What one execution cost: wall time, physical page reads, the deepest I/O queue, and (for
 * out-of-order runs) the most tasks in flight and the number of tasks.
 */
public record ExecutionStats(double seconds, long pageReads, long bytesRead, int maxIoInflight, int maxTasksInflight,
                             long tasks, long bufferPoolHits, long bufferPoolMisses) {

    /** Random-read rate over the run. */
    public double iops() {
        return seconds > 0 ? pageReads / seconds : 0;
    }

    public static ExecutionStats measure(Store store, Supplier<TaskScheduler> run) {
        store.ioStats().reset();
        long hits0 = store.bufferPool().hits();
        long misses0 = store.bufferPool().misses();
        long t0 = System.nanoTime();
        TaskScheduler s = run.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new ExecutionStats(seconds, store.ioStats().pageReads(), store.ioStats().bytesRead(),
                store.ioStats().maxInflight(), s == null ? 0 : s.maxInflight(), s == null ? 0 : s.tasksRun(),
                store.bufferPool().hits() - hits0, store.bufferPool().misses() - misses0);
    }
}
