package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.exec.ColumnRange;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.fragment.JoinBuild;
import org.oooengine.core.fragment.PartitionPipeline;
import org.oooengine.core.fragment.PipelineStep;
import org.oooengine.core.fragment.ScanPipeline;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.sql.JoinKind;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.AggregateCall;
import org.oooengine.core.sql.expr.Expr;

/** Requests for work after a join cross the wire unchanged; malformed ones are protocol errors, not work. */
class MessagesTest {
    private static final JoinSpec OL = new JoinSpec("orders", "orders", new ColumnRange("o_totalprice", 0L, 100_00L),
            List.of(new JoinSpec.Probe("orders.o_orderkey", "lineitem", "l_orderkey")),
            List.of("orders.o_orderkey", "lineitem.l_quantity"));

    @Test
    void anIndexJoinWithStepsAfterItCrossesTheWire() {
        JoinOutputSteps after = new JoinOutputSteps(List.of(SqlType.BIGINT, SqlType.decimal(15, 2)), List.of(
                new PipelineStep.PartialAggregate(List.of(new Expr.Column(0, SqlType.BIGINT)), List.of(new AggregateCall(
                        AggregateCall.Kind.SUM, new Expr.Column(1, SqlType.decimal(15, 2)), false, SqlType.decimal(25, 2))))));
        Messages.Fragment f = Messages.readFragment(new PayloadReader(Messages.fragment(
                new Messages.Fragment(OL, ExecutionMode.OOO, 128, after, 2, true))));
        assertEquals(after, f.after());
        assertEquals(OL.outerTable(), f.spec().outerTable());
        assertEquals(2, f.partition());
        assertTrue(f.hedging());
        Messages.Fragment own = Messages.readFragment(new PayloadReader(Messages.fragment(
                new Messages.Fragment(OL, ExecutionMode.OOO, 128, null, ServingNodes.OWN_PARTITION, false))));
        assertNull(own.after());
        assertFalse(own.hedging());
    }

    @Test
    void aPipelineWritingFilesCarriesItsOutputAndOneSendingRowsCarriesNone() {
        BitSet one = new BitSet();
        one.set(0);
        ScanPipeline scan = new ScanPipeline("accounts", 2, one, List.of());
        FileOutput output = anOutput();
        org.oooengine.core.types.Schema schema = output.fileSchema();
        byte[] frame = Messages.pipeline(scan.toBytes(), QueryLimits.DEFAULTS, TransactionalReads.NONE, FileReads.NONE, 3,
                output);
        Messages.Pipeline p = Messages.readPipeline(new PayloadReader(frame));
        assertSameOutput(output, p.output());
        assertEquals(3, p.partition());
        assertNull(Messages.readPipeline(new PayloadReader(Messages.pipeline(scan, QueryLimits.DEFAULTS,
                TransactionalReads.NONE, FileReads.NONE))).output());
        // a statement name that could leave the staging directory is refused on both ends
        assertThrows(IllegalArgumentException.class, () -> new FileOutput(output.directory(), "../x", output.layout(),
                schema, 0));
        int kind = Messages.pipeline(scan.toBytes(), QueryLimits.DEFAULTS, TransactionalReads.NONE, FileReads.NONE, 3).length;
        frame[kind] = 2; // an output of a kind no node knows
        assertThrows(ProtocolException.class, () -> Messages.readPipeline(new PayloadReader(frame)));
    }

    /** Files of two columns in one partition, as an INSERT into an ORC table would have the nodes write. */
    private static FileOutput anOutput() {
        org.oooengine.core.types.Schema schema = new org.oooengine.core.types.Schema(List.of(
                new org.oooengine.core.types.Column("id", org.oooengine.core.types.DataType.BIGINT),
                new org.oooengine.core.types.Column("note", org.oooengine.core.types.DataType.parse("VARCHAR"))));
        return new FileOutput("hdfs://nn/warehouse/t/.ooo-staging-1a2b", "1a2b",
                new FileReads.Layout("orc", '\u0001', "\\N"), schema, 1);
    }

    private static void assertSameOutput(FileOutput expected, FileOutput actual) {
        assertEquals(List.of(expected.directory(), expected.statement(), expected.layout(), expected.partitionKeys()),
                List.of(actual.directory(), actual.statement(), actual.layout(), actual.partitionKeys()));
        assertEquals(expected.fileSchema().columns(), actual.fileSchema().columns());
    }

    @Test
    void stepsOverRowsOfAnotherWidthThanTheJoinsAreRefused() {
        BitSet one = new BitSet();
        one.set(0);
        PayloadWriter w = new PayloadWriter(64).putVarInt(2);
        org.oooengine.core.sql.expr.ExprCodec.writeType(w, SqlType.BIGINT);
        org.oooengine.core.sql.expr.ExprCodec.writeType(w, SqlType.BIGINT);
        w.putBytes(new ScanPipeline("", 1, one, List.of()).toBytes());
        ProtocolException e = assertThrows(ProtocolException.class, () -> JoinOutputSteps.read(new PayloadReader(w.toByteArray())));
        assertTrue(e.getMessage().contains("rows of 1 columns for a join of 2"), e.getMessage());
    }

    @Test
    void aPipelineReadingTransactionalTablesCarriesItsTransactionAndTheirLayouts() {
        BitSet one = new BitSet();
        one.set(0);
        ScanPipeline scan = new ScanPipeline("accounts", 2, one, List.of());
        org.oooengine.core.types.Schema layout = new org.oooengine.core.types.Schema(List.of(
                new org.oooengine.core.types.Column("id", org.oooengine.core.types.DataType.INT),
                new org.oooengine.core.types.Column("owner", org.oooengine.core.types.DataType.varchar(25))));
        TransactionalReads reads = new TransactionalReads(org.oooengine.core.txn.TransactionId.next(),
                java.util.Map.of("accounts", layout), java.util.Set.of(), 0x5eed);
        Messages.Pipeline p = Messages.readPipeline(new PayloadReader(Messages.pipeline(scan, new QueryLimits(1 << 20, 1 << 30), reads,
                FileReads.NONE)));
        assertEquals(reads.transaction(), p.reads().transaction());
        assertEquals(0x5eed, p.reads().copySnapshot());
        assertEquals(layout.columns(), p.reads().tables().get("accounts").columns());
        assertEquals(TransactionalReads.NONE, Messages.readPipeline(new PayloadReader(
                Messages.pipeline(scan, QueryLimits.DEFAULTS, TransactionalReads.NONE, FileReads.NONE))).reads());
        // a table announced without columns is refused before any work
        PayloadWriter w = new PayloadWriter(64).putLong(0).putLong(0).putBytes(scan.toBytes()).putVarInt(1).put(1).putLong(1).putLong(2)
                .putLong(0).putString("accounts").put(0).putVarInt(0);
        ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.readPipeline(new PayloadReader(w.toByteArray())));
        assertTrue(e.getMessage().contains("transactional table accounts read with no columns"), e.getMessage());
    }

    @Test
    void aPipelineReadingFilesCarriesEverySplitWithItsPartitionValuesAndNode() {
        BitSet one = new BitSet();
        one.set(0);
        ScanPipeline scan = new ScanPipeline("hdfs://nn/warehouse/sales", 3, one, List.of());
        org.oooengine.core.types.Schema schema = new org.oooengine.core.types.Schema(List.of(
                new org.oooengine.core.types.Column("amount", org.oooengine.core.types.DataType.BIGINT),
                new org.oooengine.core.types.Column("note", org.oooengine.core.types.DataType.varchar(0)),
                new org.oooengine.core.types.Column("day", org.oooengine.core.types.DataType.DATE)));
        FileReads.Layout text = new FileReads.Layout("text", '|', "\\N");
        List<FileReads.Split> splits = List.of(
                new FileReads.Split("hdfs://nn/warehouse/sales/day=2024-01-01/a.txt", 0, 1 << 20, text,
                        List.of(19_723), List.of("host1", "host2"), "n1"),
                new FileReads.Split("hdfs://nn/warehouse/sales/day=__HIVE_DEFAULT_PARTITION__/b.txt", 4096, 10, text,
                        java.util.Arrays.asList((Object) null), List.of(), "n2"),
                // read by two nodes, each keeping a slice of the amounts, one of them the nulls
                new FileReads.Split("hdfs://nn/warehouse/sales/day=2024-01-02/c.txt", 0, 10, text, List.of(19_724),
                        List.of(), "n1", null, new FileReads.Slice(0, Long.MIN_VALUE, 99, true)),
                new FileReads.Split("hdfs://nn/warehouse/sales/day=2024-01-02/c.txt", 0, 10, text, List.of(19_724),
                        List.of(), "n2", null, new FileReads.Slice(0, 100, Long.MAX_VALUE, false)));
        FileReads files = new FileReads(java.util.Map.of(scan.table(), new FileReads.Scan(schema, 2, splits)));
        Messages.Pipeline p = Messages.readPipeline(new PayloadReader(Messages.pipeline(scan, QueryLimits.DEFAULTS,
                TransactionalReads.NONE, files)));
        assertEquals(splits, p.files().scan(scan.table()).splits());
        assertEquals(schema.columns(), p.files().scan(scan.table()).schema().columns());
        assertEquals(List.of(splits.get(1), splits.get(3)), p.files().scan(scan.table()).assignedTo("n2"));
        assertTrue(splits.get(2).slice().keeps(null) && splits.get(2).slice().keeps(99L) && !splits.get(2).slice().keeps(100L));
        assertTrue(!splits.get(3).slice().keeps(null) && splits.get(3).slice().keeps(100L) && !splits.get(3).slice().keeps(99));
        assertEquals(2, p.files().scan(scan.table()).fileSchema().size());
        // read through the nodes' caches unless the session said otherwise, the scheduling kept either way
        assertTrue(p.files().scan(scan.table()).cached());
        FileReads stolen = new FileReads(java.util.Map.of(scan.table(), new FileReads.Scan(schema, 2, splits)
                .scheduled(FileReads.Scheduling.STEALING).cached(false)));
        FileReads.Scan uncached = Messages.readPipeline(new PayloadReader(Messages.pipeline(scan, QueryLimits.DEFAULTS,
                TransactionalReads.NONE, stolen))).files().scan(scan.table());
        assertEquals(List.of(false, FileReads.Scheduling.STEALING), List.of(uncached.cached(), uncached.scheduling()));
        // a split without the table's partition values is refused before any work
        assertThrows(IllegalArgumentException.class, () -> new FileReads.Scan(schema, 1, splits));
        // as is a slice of a partition column, whose values no file holds: refused on the wire too
        List<FileReads.Split> byDay = List.of(splits.get(0).slicedFor("n1", new FileReads.Slice(2, 0, 9, true)));
        assertThrows(IllegalArgumentException.class, () -> new FileReads.Scan(schema, 2, byDay));
        byte[] frame = Messages.pipeline(scan, QueryLimits.DEFAULTS, TransactionalReads.NONE, files);
        int column = indexOfSlice(frame);
        frame[column] = 2; // the first sliced split's column, 0, made the partition column
        assertThrows(org.oooengine.core.wire.ProtocolException.class, () -> Messages.readPipeline(new PayloadReader(frame)));
    }

    /** Where in {@code frame} the column of the first slice from the least long is: after its tag (2: it keeps the nulls). */
    private static int indexOfSlice(byte[] frame) {
        byte[] slice = new org.oooengine.core.wire.PayloadWriter(16).put(2).putVarInt(0).putLong(Long.MIN_VALUE).toByteArray();
        for (int i = 0; i + slice.length <= frame.length; i++) {
            if (java.util.Arrays.equals(frame, i, i + slice.length, slice, 0, slice.length)) {
                return i + 1;
            }
        }
        throw new AssertionError("no slice in the frame");
    }

    /**
     * Splits planned with the key ranges they read: a build row goes to the nodes whose splits may
     * hold its key (one of unknown range may hold any; a null key meets none); the ranges stay with
     * the coordinator.
     */
    @Test
    void aKeyGoesToTheNodesWhoseSplitsMayHoldIt() {
        org.oooengine.core.types.Schema schema = new org.oooengine.core.types.Schema(List.of(
                new org.oooengine.core.types.Column("k", org.oooengine.core.types.DataType.BIGINT)));
        FileReads.Layout parquet = new FileReads.Layout("parquet", '|', "\\N");
        FileReads.Split split = new FileReads.Split("file:/w/t/a.parquet", 0, 100, parquet, List.of(), List.of(), "n1");
        FileReads.Scan scan = new FileReads.Scan(schema, 1, List.of(
                split.withKeys(new FileReads.KeyRange(10, 20)),
                split.assignedTo("n2").withKeys(new FileReads.KeyRange(20, 30)),
                split.assignedTo("n2").withKeys(new FileReads.KeyRange(40, 50)),
                split.assignedTo("n3").withKeys(FileReads.KeyRange.EMPTY),
                split.assignedTo("n4")));
        FileReads.KeysHeld n1 = scan.keysHeldBy("n1");
        assertTrue(n1.holds(10L) && n1.holds(20L) && !n1.holds(21L) && !n1.holds(9L));
        FileReads.KeysHeld n2 = scan.keysHeldBy("n2");
        assertTrue(n2.holds(20L) && n2.holds(30L) && n2.holds(45L) && !n2.holds(35L) && !n2.holds(51L) && !n2.holds(19L));
        assertFalse(scan.keysHeldBy("n3").holds(15L) || scan.keysHeldBy("n5").holds(15L));
        assertTrue(scan.keysHeldBy("n4").holds(-7L) && scan.keysHeldBy("n4").holds(Long.MAX_VALUE));
        assertFalse(n1.holds(null) || scan.keysHeldBy("n4").holds(null));
        ScanPipeline pipeline = new ScanPipeline("file:/w/t", 1, new BitSet(), List.of());
        FileReads sent = Messages.readPipeline(new PayloadReader(Messages.pipeline(pipeline, QueryLimits.DEFAULTS,
                TransactionalReads.NONE, new FileReads(java.util.Map.of("file:/w/t", scan))))).files();
        assertNull(sent.scan("file:/w/t").splits().get(0).keys());
    }

    @Test
    void aJoinOverAnExchangeCrossesTheWireAndAnEmptyExchangeIsRefused() {
        BitSet all = new BitSet();
        all.set(0, 2);
        ScanPipeline joins = new ScanPipeline("orders", 2, all, List.of(new PipelineStep.HashJoin(
                new JoinBuild.Exchanged("q/build", 3, true), JoinKind.FULL, List.of(1), List.of(0), null, 1)));
        Messages.Exchanged e = new Messages.Exchanged("q/probe", 3, joins, new QueryLimits(1 << 20, 5));
        assertEquals(e, Messages.readExchanged(new PayloadReader(Messages.exchanged(e))));
        byte[] none = Messages.exchanged(new Messages.Exchanged("q/probe", 3, joins, QueryLimits.DEFAULTS));
        none[1 + "q/probe".length()] = 0; // the producers' count, after the exchange's name
        assertThrows(ProtocolException.class, () -> Messages.readExchanged(new PayloadReader(none)));
        // the joined rows written into files on the node (a join shuffled by key ending an INSERT)
        FileOutput output = anOutput();
        Messages.Exchanged writing = Messages.readExchanged(new PayloadReader(Messages.exchanged(
                new Messages.Exchanged("q/probe", 3, joins, QueryLimits.DEFAULTS, output))));
        assertSameOutput(output, writing.output());
        assertEquals(joins, writing.pipeline());
    }

    @Test
    void aFullJoinBuildsOnlyFromRowsWhosePartnersAreAllHere() {
        // rows sent to every node would come out unmatched on each
        assertThrows(IllegalArgumentException.class, () -> new PipelineStep.HashJoin(new JoinBuild.Staged("q/rows"),
                JoinKind.FULL, List.of(1), List.of(0), null, 1));
        assertThrows(IllegalArgumentException.class, () -> new PipelineStep.HashJoin(new JoinBuild.Rows(List.of()),
                JoinKind.RIGHT, List.of(1), List.of(0), null, 1));
        // rows shuffled to the nodes that own their keys, a null key's to one of them: each is on one node
        new PipelineStep.HashJoin(new JoinBuild.Exchanged("q/build", 3), JoinKind.FULL, List.of(1), List.of(0), null, 1);
    }

    @Test
    void aPipelinesSummaryCrossesTheWireWithEveryFigure() {
        PartitionPipeline.Summary s = new PartitionPipeline.Summary(287_514, 49_939, 332_000_000L, 12_897_485, 4 << 20,
                70_000, 1_234_567, 250_000, 96 << 20, 40 << 20);
        assertEquals(s, Messages.readPipelineSummary(new PayloadReader(Messages.pipelineSummary(s))));
        // an earlier build's seven figures: every row grouped, no file read
        byte[] seven = java.util.Arrays.copyOf(Messages.pipelineSummary(s), 56);
        assertEquals(s.withRowsUngrouped(0).withBytesRead(0, 0), Messages.readPipelineSummary(new PayloadReader(seven)));
        byte[] eight = java.util.Arrays.copyOf(Messages.pipelineSummary(s), 64);
        assertEquals(s.withBytesRead(0, 0), Messages.readPipelineSummary(new PayloadReader(eight)));
        byte[] nine = java.util.Arrays.copyOf(Messages.pipelineSummary(s), 72); // nothing read from a cache of files
        assertEquals(s.withBytesRead(96 << 20, 0), Messages.readPipelineSummary(new PayloadReader(nine)));
        // and so a node sends it, as an earlier coordinator reads it
        assertEquals(72, Messages.pipelineSummary(s.withBytesRead(96 << 20, 0)).length);
        // a scan that took splits from other nodes and skipped row groups: six split figures more,
        // after the cached bytes (none here)
        PartitionPipeline.Summary stolen = s.withBytesRead(96 << 20, 0)
                .withSplits(new PartitionPipeline.SplitFigures(40, 12, 13, 2_500_000, 80, 31));
        byte[] sent = Messages.pipelineSummary(stolen);
        assertEquals(128, sent.length);
        assertEquals(stolen, Messages.readPipelineSummary(new PayloadReader(sent)));
        // more groups skipped than judged: refused as any malformed figure
        sent[127] = 81;
        assertThrows(ProtocolException.class, () -> Messages.readPipelineSummary(new PayloadReader(sent)));
        // no split read (a table on the nodes): not sent
        assertEquals(72, Messages.pipelineSummary(s.withBytesRead(96 << 20, 0)
                .withSplits(PartitionPipeline.SplitFigures.NONE)).length);
    }

    @Test
    void aMalformedPipelineSummaryIsAProtocolError() {
        byte[] good = Messages.pipelineSummary(new PartitionPipeline.Summary(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        // an earlier build's five figures
        ProtocolException shorter = assertThrows(ProtocolException.class,
                () -> Messages.readPipelineSummary(new PayloadReader(java.util.Arrays.copyOf(good, 40))));
        assertTrue(shorter.getMessage().contains("truncated"), shorter.getMessage());
        ProtocolException longer = assertThrows(ProtocolException.class,
                () -> Messages.readPipelineSummary(new PayloadReader(java.util.Arrays.copyOf(good, 88))));
        assertTrue(longer.getMessage().contains("a pipeline summary of 11 figures and 0 bytes after them"),
                longer.getMessage());
        byte[] negative = new PayloadWriter(56).putLong(1).putLong(2).putLong(3).putLong(-4).putLong(5).putLong(6)
                .putLong(7).toByteArray();
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> Messages.readPipelineSummary(new PayloadReader(negative)));
        assertTrue(e.getMessage().contains("negative figure -4 at 3"), e.getMessage());
    }
}
