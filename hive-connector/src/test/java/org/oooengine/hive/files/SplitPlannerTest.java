package org.oooengine.hive.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.FileReads;
import org.oooengine.core.cluster.SplitReader;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.mapreduce.OrcRows;

/** Splits cut from files as the nodes read them: every row read once, the bytes spread evenly among the nodes. */
class SplitPlannerTest {
    private static final Schema SCHEMA = new Schema(List.of(new Column("id", DataType.INT),
            new Column("name", DataType.varchar(0))));
    private static final int BLOCK = 4096;
    private static final List<ClusterSpec.NodeSpec> NODES = List.of(node("n1"), node("n2"), node("n3"));

    @TempDir
    Path dir;

    private static ClusterSpec.NodeSpec node(String id) {
        return new ClusterSpec.NodeSpec(id, "127.0.0.1", 1, "127.0.0.1:1", "/tmp/" + id);
    }

    private static Configuration smallBlocks() {
        Configuration conf = new Configuration();
        conf.setLong(SplitPlanner.MAX_SPLIT_BYTES, BLOCK);
        return conf;
    }

    @Test
    void textCutAtBlocksIsReadALineAtATimeEachLineOnceAndTheBytesSpreadEvenly() throws IOException {
        Path file = dir.resolve("part-0.txt");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            text.append(i).append('\u0001').append("name ").append("x".repeat(i % 37)).append('\n');
        }
        Files.writeString(file, text);
        List<FileReads.Split> splits = plan(file, "text");
        assertTrue(splits.size() > 20, splits.size() + " splits");
        assertEquals(Files.size(file), splits.stream().mapToLong(FileReads.Split::length).sum());
        Map<String, Long> bytes = new TreeMap<>(splits.stream().collect(Collectors.groupingBy(FileReads.Split::node,
                Collectors.summingLong(FileReads.Split::length))));
        assertEquals(NODES.size(), bytes.size(), bytes.toString());
        long most = bytes.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long least = bytes.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(most - least <= BLOCK, bytes.toString());
        assertEveryIdOnce(splits, 5000);
        // each node reads a run of the file, in order: no node's read but its first starts with a seek
        List<FileReads.Split> inOrder = splits.stream().sorted(java.util.Comparator.comparingLong(FileReads.Split::start))
                .toList();
        long changes = java.util.stream.IntStream.range(1, inOrder.size())
                .filter(i -> !inOrder.get(i).node().equals(inOrder.get(i - 1).node())).count();
        assertEquals(NODES.size() - 1, changes, inOrder.stream().map(FileReads.Split::node).toList().toString());
    }

    @Test
    void orcCutAtBlocksReadsEachStripeInTheSplitItStartsIn() throws IOException {
        Path file = dir.resolve("part-0.orc");
        Configuration conf = new Configuration();
        conf.set("orc.rows.between.memory.checks", "100");
        TypeDescription orcSchema = OrcRows.schema(SCHEMA.names(), List.of(DataType.INT, DataType.varchar(0)));
        OrcRows orc = new OrcRows(List.of(DataType.INT, DataType.varchar(0)));
        try (Writer w = OrcFile.createWriter(new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.writerOptions(conf).setSchema(orcSchema).stripeSize(BLOCK).bufferSize(1024)
                        .compress(org.apache.orc.CompressionKind.NONE))) {
            VectorizedRowBatch batch = orcSchema.createRowBatch(100);
            for (int i = 0; i < 20_000; i++) {
                orc.write(batch, batch.size++, new Object[] {i, "row " + i});
                if (batch.size == batch.getMaxSize()) {
                    w.addRowBatch(batch);
                    batch.reset();
                }
            }
        }
        List<FileReads.Split> splits = plan(file, "orc");
        assertTrue(splits.size() > 3, splits.size() + " splits");
        assertEveryIdOnce(splits, 20_000);
    }

    @Test
    void compressedTextThatCannotBeCutIsOneSplit() throws IOException {
        Path file = dir.resolve("part-0.txt.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            for (int i = 0; i < 5000; i++) {
                out.write((i + "\u0001some name\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        List<FileReads.Split> splits = plan(file, "text");
        assertEquals(1, splits.size());
        assertEveryIdOnce(splits, 5000);
    }

    /** A table small for the cluster is cut finer than its blocks: about four splits a node, none under 4 MiB. */
    @Test
    void aSmallTableIsCutIntoSeveralSplitsPerNode() throws IOException {
        Path file = dir.resolve("part-0.parquet");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(96L << 20); // 96 MiB, sparse: only its length is planned
        }
        Configuration conf = new Configuration();
        conf.setLong("fs.local.block.size", 128L << 20);
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
        FileStatus status = path.getFileSystem(conf).getFileStatus(path);
        FileReads.Layout layout = new FileReads.Layout("parquet", '\u0001', "\\N");
        List<FileReads.Split> splits = new SplitPlanner(conf).splits(
                List.of(new SplitPlanner.PartFiles(List.of(status), layout, List.of())), NODES);
        assertEquals(12, splits.size()); // 96 MiB / (3 nodes x 4) = 8 MiB each
        assertEquals(24, new SplitPlanner(conf).splits(List.of(new SplitPlanner.PartFiles(List.of(status), layout,
                List.of())), java.util.stream.IntStream.range(0, 40).mapToObj(i -> node("n" + i)).toList()).size(),
                "never under 4 MiB");
    }

    private List<FileReads.Split> plan(Path file, String format) throws IOException {
        Configuration conf = smallBlocks();
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.toUri());
        FileStatus status = path.getFileSystem(conf).getFileStatus(path);
        FileReads.Layout layout = new FileReads.Layout(format, '\u0001', "\\N");
        return new SplitPlanner(conf).splits(List.of(new SplitPlanner.PartFiles(List.of(status), layout, List.of())),
                NODES);
    }

    /** Reads every split as the nodes would, only the first column wanted. */
    private static void assertEveryIdOnce(List<FileReads.Split> splits, int rows) {
        List<Integer> ids = new ArrayList<>();
        for (FileReads.Split split : splits) {
            SplitReader.installed().read(split, SCHEMA, new boolean[] {true, false}, page -> {
                page.forEach(r -> ids.add((Integer) r[0]));
                return true;
            });
        }
        ids.sort(null);
        assertEquals(rows, ids.size());
        for (int i = 0; i < rows; i++) {
            assertEquals(i, ids.get(i));
        }
    }
}
