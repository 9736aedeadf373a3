package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.wire.ColumnarRows;
import org.oooengine.core.wire.PayloadReader;

class StagedBroadcastsTest {
    private static final List<Object[]> ROWS = IntStream.range(0, 200_000)
            .mapToObj(i -> new Object[] {(long) i, "supplier#" + i, LocalDate.ofEpochDay(9000 + i % 2000),
                    BigDecimal.valueOf(i, 2)})
            .toList();

    @Test
    void rowsComeBackInOrderFromChunksOfAboutTheChunkSize() {
        List<byte[]> chunks = StagedBroadcasts.encode(ROWS);
        assertTrue(chunks.size() > 1, chunks.size() + " chunks");
        List<Object[]> back = new ArrayList<>();
        for (byte[] chunk : chunks) {
            assertTrue(chunk.length < 2 * StagedBroadcasts.CHUNK_BYTES, chunk.length + " bytes");
            back.addAll(ColumnarRows.read(new PayloadReader(chunk)));
        }
        assertEquals(ROWS.size(), back.size());
        for (int i = 0; i < ROWS.size(); i += 997) {
            assertEquals(List.of(ROWS.get(i)), List.of(back.get(i)));
        }
        List<byte[]> none = StagedBroadcasts.encode(List.of());
        assertEquals(1, none.size(), "no rows: one empty chunk, so that the pipeline finds its id");
        assertEquals(0, ColumnarRows.read(new PayloadReader(none.get(0))).size());
    }

    @Test
    void theRowsOfAStepAreEncodedOnceForEveryNode() {
        StagedBroadcasts broadcasts = new StagedBroadcasts(null); // nothing is sent here
        PipelineStep join = new PipelineStep.HashJoin(new JoinBuild.Rows(ROWS), JoinKind.INNER, List.of(0), List.of(0), null, 4);
        ScanPipeline pipeline = new ScanPipeline("lineitem", 2, new java.util.BitSet(), List.of(join));
        StagedBroadcasts.Staging first = broadcasts.stage("n1", pipeline);
        StagedBroadcasts.Staging second = broadcasts.stage("n2", pipeline);
        String firstId = ((JoinBuild.Staged) ((PipelineStep.HashJoin) first.pipeline().steps().get(0)).build()).id();
        String secondId = ((JoinBuild.Staged) ((PipelineStep.HashJoin) second.pipeline().steps().get(0)).build()).id();
        assertNotEquals(firstId, secondId, "each node's rows named apart");
        JoinBuild.Rows rows = (JoinBuild.Rows) ((PipelineStep.HashJoin) pipeline.steps().get(0)).build();
        assertSame(broadcasts.chunks(rows.rows()), broadcasts.chunks(rows.rows()), "the bytes made once");
    }
}
