package org.oooengine.core.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.types.Column;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.Schema;
import org.oooengine.core.wire.PayloadReader;
import org.oooengine.core.wire.PayloadWriter;
import org.oooengine.core.wire.ProtocolException;
import org.oooengine.core.wire.ValueCodec;

/**
 * What a node's pipeline reads of tables held in files (a warehouse's tables), sent with the
 * pipeline: for each such table, keyed as the pipeline names it, the splits of its files and the
 * node each split is assigned to. Every node is sent every split, so that one done with its own
 * knows whose are left. A node reads them with the {@link SplitReader} on its class path.
 */
public record FileReads(Map<String, Scan> tables) {
    public static final FileReads NONE = new FileReads(Map.of());

    public FileReads {
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    }

    public boolean reads(String table) {
        return tables.containsKey(table);
    }

    public Scan scan(String table) {
        return tables.get(table);
    }

    /**
     * How the nodes share a scan's splits out among themselves (seed 003's patterns of parallel
     * scans): each reads only those assigned to it ({@link #LOCAL}, pattern 1); each reads those
     * assigned to it, then takes splits not yet started from the ends of the others' queues
     * ({@link #STEALING}, pattern 2: a slow or overloaded node is helped); or all take the next
     * split in the scan's order from one queue ({@link #SHARED}, pattern 3: every node starts on
     * the same files).
     */
    public enum Scheduling {
        LOCAL, STEALING, SHARED
    }

    /**
     * A table's files as splits: the stored types of its columns, the files' own first
     * ({@code fileColumns} of them), then its partition columns, whose values each split carries;
     * shared out among the nodes as {@code scheduling} says, under {@code id} (unique to this scan);
     * read through the nodes' caches of files' splits where {@code cached} ({@link SplitCache}),
     * else from the files alone.
     */
    public record Scan(Schema schema, int fileColumns, List<Split> splits, String id, Scheduling scheduling,
                       boolean cached) {
        /** A scan whose nodes each read the splits assigned to them. */
        public Scan(Schema schema, int fileColumns, List<Split> splits) {
            this(schema, fileColumns, splits, java.util.UUID.randomUUID().toString(), Scheduling.LOCAL);
        }

        /** A scan read through the nodes' caches. */
        public Scan(Schema schema, int fileColumns, List<Split> splits, String id, Scheduling scheduling) {
            this(schema, fileColumns, splits, id, scheduling, true);
        }

        public Scan {
            splits = List.copyOf(splits);
            if (fileColumns < 0 || fileColumns > schema.size()) {
                throw new IllegalArgumentException(fileColumns + " file columns of a table of " + schema.size());
            }
            for (Split s : splits) {
                if (s.slice() != null && s.slice().column() >= fileColumns) {
                    throw new IllegalArgumentException("split " + s + " keeps a slice of column " + s.slice().column()
                            + ", not one of the files' " + fileColumns);
                }
                if (s.partitionValues().size() != schema.size() - fileColumns) {
                    throw new IllegalArgumentException("split " + s + " has " + s.partitionValues().size()
                            + " partition values, the table " + (schema.size() - fileColumns) + " partition columns");
                }
            }
        }

        /** This scan, its splits shared out as {@code how} says. */
        public Scan scheduled(Scheduling how) {
            return new Scan(schema, fileColumns, splits, id, how, cached);
        }

        /** This scan, read through the nodes' caches or not as {@code through} says. */
        public Scan cached(boolean through) {
            return new Scan(schema, fileColumns, splits, id, scheduling, through);
        }

        /** The columns the files hold. */
        public Schema fileSchema() {
            return new Schema(schema.columns().subList(0, fileColumns));
        }

        /**
         * The keys the splits assigned to {@code node} may hold of the column their ranges are
         * of ({@link Split#keys}), for the build rows of a join routed by those ranges: any key
         * when one of its splits has no known range.
         */
        public KeysHeld keysHeldBy(String node) {
            List<KeyRange> ranges = new ArrayList<>();
            for (Split s : splits) {
                if (s.node().equals(node)) {
                    if (s.keys() == null) {
                        return KeysHeld.ANY;
                    }
                    if (s.keys().min() <= s.keys().max()) {
                        ranges.add(s.keys());
                    }
                }
            }
            return KeysHeld.of(ranges);
        }

        /** The splits assigned to {@code node}, in the order they were planned. */
        public List<Split> assignedTo(String node) {
            return splits.stream().filter(s -> s.node().equals(node)).toList();
        }

        public long bytes() {
            return splits.stream().mapToLong(Split::length).sum();
        }
    }

    /**
     * The least and greatest stored value (an integer, a date as epoch days) of a column over the
     * rows a split reads, from its file's footer: {@code min > max} when it reads none.
     */
    public record KeyRange(long min, long max) {
        /** The range of a split that reads no rows. */
        public static final KeyRange EMPTY = new KeyRange(1, 0);
    }

    /** The keys a node's splits may hold: their ranges merged, looked up by halving. */
    public static final class KeysHeld {
        static final KeysHeld ANY = new KeysHeld(null, null);

        private final long[] mins;
        private final long[] maxs;

        private KeysHeld(long[] mins, long[] maxs) {
            this.mins = mins;
            this.maxs = maxs;
        }

        static KeysHeld of(List<KeyRange> ranges) {
            List<KeyRange> sorted = new ArrayList<>(ranges);
            sorted.sort(java.util.Comparator.comparingLong(KeyRange::min));
            long[] mins = new long[sorted.size()];
            long[] maxs = new long[sorted.size()];
            int n = 0;
            for (KeyRange r : sorted) {
                if (n > 0 && r.min() <= maxs[n - 1]) {
                    maxs[n - 1] = Math.max(maxs[n - 1], r.max());
                } else {
                    mins[n] = r.min();
                    maxs[n++] = r.max();
                }
            }
            return new KeysHeld(java.util.Arrays.copyOf(mins, n), java.util.Arrays.copyOf(maxs, n));
        }

        /** Whether {@code key} (stored; null: none) may be held: a null key meets no row, and is held nowhere. */
        public boolean holds(Long key) {
            if (key == null) {
                return false;
            }
            if (mins == null) {
                return true;
            }
            int i = java.util.Arrays.binarySearch(mins, key);
            int at = i >= 0 ? i : -i - 2; // the last range starting at or below the key
            return at >= 0 && key <= maxs[at];
        }
    }

    /**
     * The rows of a split one node keeps when each node reads a slice of a column's values (a
     * GROUP BY by that column run whole on each node): those whose value of table column
     * {@code column} (stored: an integer, a date as epoch days) lies in {@code [min, max]}, and
     * those where it is null when {@code nulls} (one node's copy of each split keeps them).
     */
    public record Slice(int column, long min, long max, boolean nulls) {
        public Slice {
            if (column < 0 || min > max) {
                throw new IllegalArgumentException("a slice of column " + column + " from " + min + " to " + max);
            }
        }

        /** Whether a row whose value is {@code value} (stored; null: none) is this slice's. */
        public boolean keeps(Object value) {
            if (value == null) {
                return nulls;
            }
            long v = ((Number) value).longValue();
            return v >= min && v <= max;
        }
    }

    /** How a file holds rows: a format's name ({@code text}, {@code orc}, {@code parquet}), and for text its delimiter and NULL text. */
    public record Layout(String format, char fieldDelimiter, String nullText) {
    }

    /**
     * Bytes {@code [start, start + length)} of the file at {@code path} (a qualified Hadoop path),
     * in {@code layout}, whose rows all carry {@code partitionValues} (stored values, null allowed),
     * assigned to node {@code node}; {@code hosts}: the hosts holding its bytes, as the file
     * system says (none known: empty). {@code keys}: the least and greatest value of the column
     * a join routes its build rows by ({@link KeyRange}), where the coordinator read them from the
     * footer; null otherwise. The coordinator alone uses it: it is not sent. {@code slice}: the
     * rows of it that node keeps when the nodes read slices of a column's values; null: all.
     */
    public record Split(String path, long start, long length, Layout layout, List<Object> partitionValues,
                        List<String> hosts, String node, KeyRange keys, Slice slice) {
        public Split {
            partitionValues = Collections.unmodifiableList(new ArrayList<>(partitionValues)); // NULL is a value
            hosts = List.copyOf(hosts);
            if (start < 0 || length < 0) {
                throw new IllegalArgumentException("a split of " + path + " at " + start + " of " + length + " bytes");
            }
        }

        /** A split of no known key range. */
        public Split(String path, long start, long length, Layout layout, List<Object> partitionValues,
                     List<String> hosts, String node) {
            this(path, start, length, layout, partitionValues, hosts, node, null, null);
        }

        public Split assignedTo(String newNode) {
            return new Split(path, start, length, layout, partitionValues, hosts, newNode, keys, slice);
        }

        /** This split, its rows' values of the routing column within {@code range}. */
        public Split withKeys(KeyRange range) {
            return new Split(path, start, length, layout, partitionValues, hosts, node, range, slice);
        }

        /** This split read on {@code reader}, which keeps only the rows of {@code kept} (null: all). */
        public Split slicedFor(String reader, Slice kept) {
            return new Split(path, start, length, layout, partitionValues, hosts, reader, keys, kept);
        }

        @Override
        public String toString() {
            return path + " [" + start + ", " + (start + length) + ")";
        }
    }

    /** Set in a scan's scheduling byte when it is read from the files alone, not through the nodes' caches. */
    private static final int UNCACHED = 0x40;

    void write(PayloadWriter w) {
        w.putVarInt(tables.size());
        for (Map.Entry<String, Scan> t : tables.entrySet()) {
            Scan scan = t.getValue();
            w.putString(t.getKey()).putString(scan.id()).put(scan.scheduling().ordinal() | (scan.cached() ? 0 : UNCACHED))
                    .putVarInt(scan.schema().size()).putVarInt(scan.fileColumns());
            for (Column c : scan.schema().columns()) {
                w.putString(c.name()).putString(c.type().toString());
            }
            w.putVarInt(scan.splits().size());
            for (Split s : scan.splits()) {
                w.putString(s.path()).putLong(s.start()).putLong(s.length());
                w.putString(s.layout().format()).putVarInt(s.layout().fieldDelimiter()).putString(s.layout().nullText());
                ValueCodec.writeRow(w, s.partitionValues().toArray());
                w.putVarInt(s.hosts().size());
                s.hosts().forEach(w::putString);
                w.putString(s.node());
                w.put(s.slice() == null ? 0 : s.slice().nulls() ? 2 : 1);
                if (s.slice() != null) {
                    w.putVarInt(s.slice().column()).putLong(s.slice().min()).putLong(s.slice().max());
                }
            }
        }
    }

    /** Reads {@link #write}; none at all from a coordinator of a build before files were read on the nodes. */
    static FileReads read(PayloadReader r) {
        if (r.remaining() == 0) {
            return NONE;
        }
        int n = r.getCount(2);
        if (n == 0) {
            return NONE;
        }
        Map<String, Scan> tables = new LinkedHashMap<>();
        try {
            for (int i = 0; i < n; i++) {
                String name = r.getString();
                String id = r.getString();
                int how = r.get();
                boolean cached = (how & UNCACHED) == 0;
                how &= ~UNCACHED;
                if (how < 0 || how >= Scheduling.values().length) {
                    throw new ProtocolException("file reads: scheduling " + how);
                }
                int width = r.getCount(2);
                int fileColumns = r.getVarInt();
                List<Column> columns = new ArrayList<>(width);
                for (int c = 0; c < width; c++) {
                    columns.add(new Column(r.getString(), DataType.parse(r.getString())));
                }
                int count = r.getCount(20);
                List<Split> splits = new ArrayList<>(count);
                for (int s = 0; s < count; s++) {
                    String path = r.getString();
                    long start = r.getLong();
                    long length = r.getLong();
                    Layout layout = new Layout(r.getString(), (char) r.getVarInt(), r.getString());
                    List<Object> values = java.util.Arrays.asList(ValueCodec.readRow(r));
                    int hostCount = r.getCount(1);
                    List<String> hosts = new ArrayList<>(hostCount);
                    for (int h = 0; h < hostCount; h++) {
                        hosts.add(r.getString());
                    }
                    String node = r.getString();
                    int sliced = r.get();
                    if (sliced < 0 || sliced > 2) {
                        throw new ProtocolException("file reads: slice tag " + sliced);
                    }
                    Slice slice = null;
                    if (sliced > 0) { // its column is checked with the scan's
                        slice = new Slice(r.getVarInt(), r.getLong(), r.getLong(), sliced == 2);
                    }
                    splits.add(new Split(path, start, length, layout, values, hosts, node, null, slice));
                }
                tables.put(name, new Scan(new Schema(columns), fileColumns, splits, id, Scheduling.values()[how], cached));
            }
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("file reads: " + e.getMessage());
        }
        return new FileReads(tables);
    }
}
