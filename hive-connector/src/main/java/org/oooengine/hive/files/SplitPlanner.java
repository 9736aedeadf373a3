package org.oooengine.hive.files;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.oooengine.core.cluster.ClusterSpec;
import org.oooengine.core.cluster.FileReads;

/**
 * Cuts a table's files into splits and assigns each to a node (seed 003's pattern 1): a split is
 * at most a block's worth of a file, and smaller when the table is small for the cluster — about
 * {@value #SPLITS_PER_NODE} per node, none below {@value #MIN_SPLIT_BYTES} bytes, as Spark sizes
 * its file partitions — so that nodes done early have splits to take. It goes to the node with the fewest bytes
 * assigned among those on a host holding the block, or, when no node is, among all nodes. A
 * compressed text file that cannot be cut is one split, as Hadoop reads it.
 */
final class SplitPlanner {
    /** Hadoop's setting for the most bytes of a split, which its input formats read too. */
    static final String MAX_SPLIT_BYTES = "mapreduce.input.fileinputformat.split.maxsize";
    /** Splits per node a table is cut into at least, while they stay above {@link #MIN_SPLIT_BYTES}. */
    static final int SPLITS_PER_NODE = 4;
    /** Below this a split costs more to open (footers, streams) than it spreads work. */
    static final long MIN_SPLIT_BYTES = 4L << 20;

    private final Configuration conf;

    SplitPlanner(Configuration conf) {
        this.conf = conf;
    }

    /** The splits of {@code files}, each with its part's layout and stored partition values, assigned among {@code nodes}. */
    List<FileReads.Split> splits(List<PartFiles> files, List<ClusterSpec.NodeSpec> nodes) throws IOException {
        return splits(files, nodes, SplitScheduling.DEFAULT);
    }

    /** As above, each node's share of the bytes in proportion to its weight in {@code scheduling}. */
    List<FileReads.Split> splits(List<PartFiles> files, List<ClusterSpec.NodeSpec> nodes, SplitScheduling scheduling)
            throws IOException {
        Map<String, Long> assigned = new LinkedHashMap<>();
        nodes.forEach(n -> assigned.put(n.id(), 0L));
        CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
        long total = files.stream().flatMap(p -> p.files().stream()).mapToLong(FileStatus::getLen).sum();
        long spread = Math.max(MIN_SPLIT_BYTES, total / ((long) Math.max(1, nodes.size()) * SPLITS_PER_NODE));
        List<FileReads.Split> out = new ArrayList<>();
        for (PartFiles part : files) {
            for (FileStatus file : part.files()) {
                String previous = null;
                for (Piece piece : pieces(file, part.layout().format(), codecs, spread)) {
                    String node = choose(piece, nodes, assigned, scheduling, previous, total);
                    previous = node;
                    assigned.merge(node, piece.length(), Long::sum);
                    out.add(new FileReads.Split(file.getPath().toString(), piece.start(), piece.length(),
                            part.layout(), part.partitionValues(), piece.hosts(), node));
                }
            }
        }
        return out;
    }

    /** A part's data files, the layout they hold rows in and the stored values of its partition columns. */
    record PartFiles(List<FileStatus> files, FileReads.Layout layout, List<Object> partitionValues) {
    }

    private record Piece(long start, long length, List<String> hosts) {
    }

    /**
     * A file cut at its block size, at {@link #MAX_SPLIT_BYTES} or at {@code spread}, whichever is
     * least (Hadoop's input formats cut at the first two), each piece with the hosts of the block it
     * starts in; the whole file when its compression cannot be cut.
     */
    private List<Piece> pieces(FileStatus file, String format, CompressionCodecFactory codecs, long spread)
            throws IOException {
        FileSystem fs = file.getPath().getFileSystem(conf);
        BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, file.getLen());
        CompressionCodec codec = format.equals("text") ? codecs.getCodec(file.getPath()) : null;
        boolean whole = codec != null && !(codec instanceof SplittableCompressionCodec);
        long size = Math.max(1, Math.min(Math.min(conf.getLong(MAX_SPLIT_BYTES, Long.MAX_VALUE), spread),
                file.getBlockSize() > 0 ? file.getBlockSize() : Long.MAX_VALUE));
        if (whole || file.getLen() <= size) {
            return List.of(new Piece(0, file.getLen(), hostsAt(blocks, 0)));
        }
        List<Piece> pieces = new ArrayList<>();
        for (long start = 0; start < file.getLen(); start += size) {
            pieces.add(new Piece(start, Math.min(size, file.getLen() - start), hostsAt(blocks, start)));
        }
        return pieces;
    }

    /** The hosts of the block holding byte {@code offset}; none known: empty. */
    private static List<String> hostsAt(BlockLocation[] blocks, long offset) throws IOException {
        for (BlockLocation b : blocks) {
            if (offset >= b.getOffset() && offset < b.getOffset() + b.getLength()) {
                return hosts(b);
            }
        }
        return blocks.length == 0 ? List.of() : hosts(blocks[0]);
    }

    /** The hosts holding a block, by name and by address, lower case. */
    private static List<String> hosts(BlockLocation block) throws IOException {
        Set<String> hosts = new LinkedHashSet<>();
        for (String h : block.getHosts()) {
            hosts.add(h.toLowerCase(Locale.ROOT));
        }
        for (String name : block.getNames()) {
            int colon = name.lastIndexOf(':');
            hosts.add((colon < 0 ? name : name.substring(0, colon)).toLowerCase(Locale.ROOT));
        }
        return List.copyOf(hosts);
    }

    /**
     * The least loaded node (bytes assigned over its weight) on a host holding the piece, else the
     * least loaded node; the first of equals. But the node given the file's previous piece
     * ({@code previous}, null for a first piece) keeps the next one while it is as fit a place for
     * it and the piece fits, within half of it, in the node's share of all {@code total} bytes
     * (in proportion to its weight): each node then reads a file's pieces in runs, in order, rather
     * than every other one, each read of which would begin with a seek (seed 003's reads that
     * became random), and the shares stay even.
     */
    private static String choose(Piece piece, List<ClusterSpec.NodeSpec> nodes, Map<String, Long> assigned,
                                 SplitScheduling scheduling, String previous, long total) {
        Comparator<ClusterSpec.NodeSpec> byLoad = Comparator.comparingDouble(
                n -> assigned.get(n.id()) / scheduling.weight(n.id()));
        List<ClusterSpec.NodeSpec> holding = nodes.stream()
                .filter(n -> piece.hosts().contains(n.host().toLowerCase(Locale.ROOT))).toList();
        List<ClusterSpec.NodeSpec> candidates = holding.isEmpty() ? nodes : holding;
        double weights = nodes.stream().mapToDouble(n -> scheduling.weight(n.id())).sum();
        for (ClusterSpec.NodeSpec n : candidates) {
            double share = total * scheduling.weight(n.id()) / weights;
            if (n.id().equals(previous) && assigned.get(n.id()) + piece.length() / 2.0 <= share) {
                return n.id();
            }
        }
        return candidates.stream().min(byLoad).map(ClusterSpec.NodeSpec::id)
                .orElseThrow(() -> new IllegalStateException("no node to read files on"));
    }

    /** The layout a split carries on the wire. */
    static FileReads.Layout layout(FileLayout layout) {
        return new FileReads.Layout(layout.format().name().toLowerCase(Locale.ROOT), layout.fieldDelimiter(),
                layout.nullText());
    }
}
