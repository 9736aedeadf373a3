package org.oooengine.core.fragment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.oooengine.core.wire.ColumnarRows;

/**
 * The builds from a node's own partition ({@link JoinBuild.Local}) that one pipeline reads more
 * than once, the same pipeline each time (TPC-H Q21: the late orders' lineitems whose keys reduce
 * two other scans of lineitem): the first read runs it and keeps its rows, held against the
 * query's memory, for the reads after it; the last read lets them go. Where the memory does not
 * allow, or a read comes after the last counted, the pipeline runs again. Thread-safe.
 */
final class RepeatedBuilds {
    private final QueryMemory memory;
    /** Per repeated build, the reads still to come. */
    private final Map<ScanPipeline, Integer> readsLeft = new HashMap<>();
    private final Map<ScanPipeline, Kept> kept = new HashMap<>();

    private record Kept(List<ColumnarRows.Chunk> chunks, long bytes) {
    }

    private RepeatedBuilds(QueryMemory memory) {
        this.memory = memory;
    }

    /**
     * {@code spec} with the broadcast rows its joins build from (at any depth) one list where they
     * are equal: each broadcast arrives as rows of its own, so pipelines that differ only in which
     * copy of the same rows they read (Q21's three joins with the suppliers of one nation) become
     * equal, and {@link #of} finds them repeated. {@code spec} itself when no two are equal.
     */
    static ScanPipeline withEqualRowsShared(ScanPipeline spec) {
        List<JoinBuild.Rows> seen = new ArrayList<>();
        boolean[] shared = {false};
        ScanPipeline mapped = spec.withBuilds(build -> {
            if (!(build instanceof JoinBuild.Rows rows)) {
                return build;
            }
            for (JoinBuild.Rows earlier : seen) {
                if (earlier != rows && earlier.chunk().size() == rows.chunk().size() && sameRows(earlier.rows(), rows.rows())) {
                    shared[0] = true;
                    return earlier;
                }
            }
            seen.add(rows);
            return rows;
        });
        return shared[0] ? mapped : spec;
    }

    private static boolean sameRows(List<Object[]> a, List<Object[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The local builds {@code spec} reads (at any depth) more than once. */
    static RepeatedBuilds of(ScanPipeline spec, QueryMemory memory) {
        RepeatedBuilds r = new RepeatedBuilds(memory);
        Map<ScanPipeline, Integer> reads = new HashMap<>();
        count(spec, reads);
        reads.forEach((p, n) -> {
            if (n > 1) {
                r.readsLeft.put(p, n);
            }
        });
        return r;
    }

    private static void count(ScanPipeline spec, Map<ScanPipeline, Integer> reads) {
        for (PipelineStep step : spec.steps()) {
            if (step instanceof PipelineStep.HashJoin j && j.build() instanceof JoinBuild.Local local) {
                reads.merge(local.pipeline(), 1, Integer::sum);
                count(local.pipeline(), reads);
            }
        }
    }

    /** Hands {@code pipeline}'s rows to {@code chunks}: kept ones where an earlier read kept them, else {@code run}'s. */
    void read(ScanPipeline pipeline, Consumer<ColumnarRows.Chunk> chunks, Consumer<Consumer<ColumnarRows.Chunk>> run) {
        Kept held = null;
        boolean keep = false;
        synchronized (this) {
            Integer left = readsLeft.get(pipeline);
            if (left != null) {
                held = kept.get(pipeline);
                keep = held == null && left > 1;
                if (left > 1) {
                    readsLeft.put(pipeline, left - 1);
                } else { // the last read: what was kept goes to it
                    readsLeft.remove(pipeline);
                    kept.remove(pipeline);
                    if (held != null) {
                        memory.release(held.bytes());
                    }
                }
            }
        }
        if (held != null) {
            held.chunks().forEach(chunks);
            return;
        }
        if (!keep) {
            run.accept(chunks);
            return;
        }
        List<ColumnarRows.Chunk> made = new ArrayList<>();
        run.accept(chunk -> {
            // the rows themselves, not the list they came in, which its maker may use again
            made.add(chunk.columns() != null ? chunk : ColumnarRows.Chunk.ofRows(new ArrayList<>(chunk.rows())));
            chunks.accept(chunk);
        });
        long bytes = made.stream().mapToLong(QueryMemory::chunkBytes).sum();
        try {
            memory.reserve("repeated local build", bytes);
        } catch (MemoryLimitExceededException full) {
            return; // the reads after this one run it again
        }
        synchronized (this) {
            if (!readsLeft.containsKey(pipeline) || kept.putIfAbsent(pipeline, new Kept(made, bytes)) != null) {
                memory.release(bytes); // no read comes for them, or another read kept them first
            }
        }
    }

    /** Lets go of what reads that never came would have taken. */
    synchronized void close() {
        kept.values().forEach(k -> memory.release(k.bytes()));
        kept.clear();
        readsLeft.clear();
    }
}
