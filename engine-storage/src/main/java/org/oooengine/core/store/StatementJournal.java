package org.oooengine.core.store;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.oooengine.core.storage.BTreeWriter;
import org.oooengine.core.storage.ChecksummedRecords;
import org.oooengine.core.storage.DataCorruptedException;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.storage.PageFormat;
import org.oooengine.core.storage.StorageException;

/**
 * What a statement written in place changes on a node, kept durable before any of it is seen: per
 * table the rows it adds (negative: removes) and the rows the table holds after it, and per tree
 * the page images its flush writes ({@link BTreeWriter#pendingFlush}). One file per statement in
 * the node's {@code writes} directory, named by the statement's number: {@code <id>.preparing}
 * while it is written, {@code <id>.prepared} once it is synced (the statement may still be rolled
 * back), {@code <id>.committed} once the statement is decided (it is rolled forward, after a crash
 * too), deleted once every tree and the manifest hold it. Its records are {@link
 * ChecksummedRecords}: a header (tag -2), per tree a tree record (-3) followed by its page images
 * (tag: the page number, as in a redo log), and an end record (-4) counting the records before it;
 * reading checks every one, so a damaged journal is reported (file, offset, checksum) and never
 * applied.
 */
public final class StatementJournal {
    public static final String PREPARING = ".preparing";
    public static final String PREPARED = ".prepared";
    public static final String COMMITTED = ".committed";
    private static final int MAGIC = 0x4F6F4F4A; // 'OoOJ'
    private static final byte VERSION = 1;
    private static final long HEADER = -2;
    private static final long TREE = -3;
    private static final long END = -4;
    private static final int MAX_PAYLOAD = Math.max(PageFormat.MAX_PAGE_SIZE, 16 << 20);

    /** A table the statement changed: {@code delta} rows more (or fewer), {@code rowsAfter} in all then. */
    public record TableChange(String table, long delta, long rowsAfter) {
    }

    /** The images one tree's flush writes; {@code file} is the tree's file in the store directory. */
    public record TreeImages(String table, String file, BTreeWriter.Flush flush) {
    }

    private final long statement;
    private final String decider;
    /** The load time of the store it was prepared on: it is rolled forward into that store only. */
    private final String storeLoadedAt;
    private final List<TableChange> tables;
    private final List<TreeImages> trees;

    public StatementJournal(long statement, String decider, String storeLoadedAt, List<TableChange> tables,
                            List<TreeImages> trees) {
        this.statement = statement;
        this.decider = decider;
        this.storeLoadedAt = storeLoadedAt == null ? "" : storeLoadedAt;
        this.tables = List.copyOf(tables);
        this.trees = List.copyOf(trees);
    }

    public long statement() {
        return statement;
    }

    /** The node whose record decides whether the statement committed. */
    public String decider() {
        return decider;
    }

    public List<TableChange> tables() {
        return tables;
    }

    public List<TreeImages> trees() {
        return trees;
    }

    /** The statement's number as the nodes name it, in files and messages. */
    public static String name(long statement) {
        return String.format("%016x", statement);
    }

    /** The statement number a journal file is named by, or null when {@code file} is none. */
    public static Long statementOf(Path file) {
        String n = file.getFileName().toString();
        int dot = n.indexOf('.');
        if (dot != 16) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(n.substring(0, dot), 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static Path file(Path dir, long statement, String suffix) {
        return dir.resolve(name(statement) + suffix);
    }

    /** The journal files in {@code dir} with {@code suffix}, oldest name first. */
    public static List<Path> list(Path dir, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix) && statementOf(p) != null).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /**
     * Writes this journal as {@code <dir>/<id>.prepared}: into {@code .preparing} first, synced,
     * then renamed, and the directory synced; returns the file. A crash before the rename leaves
     * a {@code .preparing} file, which is no prepared statement.
     */
    public Path writePrepared(Path dir) {
        Path tmp = file(dir, statement, PREPARING);
        Path done = file(dir, statement, PREPARED);
        try {
            Directories.createPrivate(dir);
            try (FileChannel ch = Directories.openPrivate(tmp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 20);
                long records = 0;
                out.write(ChecksummedRecords.frame(HEADER, header()));
                records++;
                for (TreeImages t : trees) {
                    BTreeWriter.Flush f = t.flush();
                    out.write(ChecksummedRecords.frame(TREE, encode(d -> {
                        d.writeUTF(t.table());
                        d.writeUTF(t.file());
                        d.writeInt(f.pageSize());
                        d.writeLong(f.pageCount());
                        d.writeInt(f.pageNos().length);
                    })));
                    records++;
                    for (int i = 0; i < f.pageNos().length; i++) {
                        out.write(ChecksummedRecords.frame(f.pageNos()[i], f.images().get(i)));
                        records++;
                    }
                }
                long count = records;
                out.write(ChecksummedRecords.frame(END, encode(d -> d.writeLong(count))));
                out.flush();
                ch.force(true);
            }
            Files.move(tmp, done, StandardCopyOption.ATOMIC_MOVE);
            Directories.syncDirectory(dir);
            return done;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a .preparing file is deleted when the node starts anyway
            }
            throw new UncheckedIOException("cannot write the journal " + done, e);
        }
    }

    private byte[] header() throws IOException {
        return encode(d -> {
            d.writeInt(MAGIC);
            d.writeByte(VERSION);
            d.writeLong(statement);
            d.writeUTF(decider);
            d.writeUTF(storeLoadedAt);
            d.writeInt(tables.size());
            for (TableChange t : tables) {
                d.writeUTF(t.table());
                d.writeLong(t.delta());
                d.writeLong(t.rowsAfter());
            }
            d.writeInt(trees.size());
        });
    }

    /** Reads and checks the whole journal in {@code file}. */
    public static StatementJournal read(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ChecksummedRecords.Reader records = new ChecksummedRecords.Reader(ch, file, MAX_PAYLOAD);
            ChecksummedRecords.Record first = records.next();
            if (first == null || first.tag() != HEADER) {
                throw corrupt(file, 0, first == null ? "the file is empty" : "it does not start with a header record");
            }
            DataInputStream h = decode(first.payload());
            int magic = h.readInt();
            byte version = h.readByte();
            if (magic != MAGIC || version != VERSION) {
                throw corrupt(file, 0, String.format("magic 0x%08x, version %d: not a statement journal of this engine",
                        magic, version));
            }
            long statement = h.readLong();
            String decider = h.readUTF();
            String loadedAt = h.readUTF();
            int tableCount = h.readInt();
            List<TableChange> tables = new ArrayList<>();
            for (int i = 0; i < tableCount; i++) {
                tables.add(new TableChange(h.readUTF(), h.readLong(), h.readLong()));
            }
            int treeCount = h.readInt();
            long count = 1;
            List<TreeImages> trees = new ArrayList<>();
            for (int t = 0; t < treeCount; t++) {
                ChecksummedRecords.Record r = expect(records, file, TREE);
                count++;
                DataInputStream d = decode(r.payload());
                String table = d.readUTF();
                String treeFile = d.readUTF();
                int pageSize = d.readInt();
                long pageCount = d.readLong();
                int images = d.readInt();
                long[] pageNos = new long[images];
                List<byte[]> pages = new ArrayList<>(images);
                for (int i = 0; i < images; i++) {
                    ChecksummedRecords.Record page = records.next();
                    if (page == null || page.tag() < 0 || page.payload().length != pageSize) {
                        throw corrupt(file, page == null ? -1 : page.offset(), "expected page image " + (i + 1) + " of "
                                + images + " of " + treeFile);
                    }
                    PageFormat.verify(page.payload(), 0, pageSize, file, page.tag());
                    pageNos[i] = page.tag();
                    pages.add(page.payload());
                    count++;
                }
                trees.add(new TreeImages(table, treeFile, new BTreeWriter.Flush(pageSize, pageCount, pageNos, pages)));
            }
            ChecksummedRecords.Record end = expect(records, file, END);
            long counted = decode(end.payload()).readLong();
            if (counted != count || records.next() != null) {
                throw corrupt(file, end.offset(), "the end record counts " + counted + " records before it, " + count
                        + " were read" + (counted == count ? ", and more follow it" : ""));
            }
            return new StatementJournal(statement, decider, loadedAt, tables, trees);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the journal " + file, e);
        } catch (IllegalArgumentException e) { // a record that decodes to nonsense
            throw corrupt(file, -1, e.getMessage());
        }
    }

    private static ChecksummedRecords.Record expect(ChecksummedRecords.Reader records, Path file, long tag) {
        ChecksummedRecords.Record r = records.next();
        if (r == null || r.tag() != tag) {
            throw corrupt(file, r == null ? -1 : r.offset(), r == null ? "the file ends before its end record"
                    : "a record tagged " + r.tag() + " where one tagged " + tag + " belongs");
        }
        return r;
    }

    private static DataCorruptedException corrupt(Path file, long offset, String what) {
        return new DataCorruptedException(file, "corrupt statement journal " + file
                + (offset >= 0 ? " at offset " + offset : "") + ": " + what);
    }

    /** The decision is taken: {@code <id>.prepared} becomes {@code <id>.committed}, the directory synced. */
    public static Path markCommitted(Path prepared) {
        Path committed = prepared.resolveSibling(prepared.getFileName().toString()
                .replace(PREPARED, COMMITTED));
        try {
            Files.move(prepared, committed, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark " + prepared + " committed", e);
        }
        Directories.syncDirectory(prepared.getParent());
        return committed;
    }

    /**
     * Deletes a journal: a committed one once the store holds it, with the directory synced (one a
     * crash brought back would write its images over what later writes and reorganizations of its
     * trees did); a prepared one rolled back without (one a crash brings back is asked about again:
     * not decided, deleted).
     */
    public static void delete(Path file) {
        try {
            if (Files.deleteIfExists(file) && file.getFileName().toString().endsWith(COMMITTED)) {
                Directories.syncDirectory(file.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the journal " + file, e);
        }
    }

    /** Fails unless the store this journal was prepared on is {@code manifest}'s. */
    public void requireStore(StoreManifest manifest, Path file) {
        String loaded = manifest.loadedAt() == null ? "" : manifest.loadedAt();
        if (!loaded.equals(storeLoadedAt)) {
            throw new StorageException("the journal " + file + " of statement " + name(statement) + " was prepared on "
                    + "the store loaded at " + storeLoadedAt + ", not on the one there now (loaded at " + loaded
                    + "): it cannot be rolled forward into it");
        }
    }

    /**
     * Rolls the statement forward into the store in {@code storeDir}, which nothing has open:
     * every tree's images written in place ({@link BTreeWriter#writeTo}), then the manifest counts
     * each table's rows as after the statement. Doing it again changes nothing.
     */
    public void applyTo(Path storeDir, Path file) {
        StoreManifest manifest = StoreManifest.read(storeDir);
        requireStore(manifest, file);
        for (TreeImages t : trees) {
            BTreeWriter.writeTo(StoreFiles.resolve(storeDir, t.file()), t.flush());
        }
        Map<String, Long> rows = new HashMap<>();
        tables.forEach(t -> rows.put(t.table(), t.rowsAfter()));
        List<StoreManifest.TableMeta> metas = new ArrayList<>();
        for (StoreManifest.TableMeta m : manifest.tables()) {
            Long after = rows.remove(m.name());
            metas.add(after == null ? m : new StoreManifest.TableMeta(m.name(), m.columns(), m.primaryKey(), after,
                    StoreFiles.resolve(storeDir, m.file()).toFile().length(), m.file(), m.indexes(), m.columnsFile(),
                    m.columnRanges()));
        }
        if (!rows.isEmpty()) {
            throw new StorageException("the journal " + file + " of statement " + name(statement) + " changes tables "
                    + rows.keySet() + ", which the store in " + storeDir + " does not hold");
        }
        StoreManifest written = new StoreManifest(manifest.formatVersion(), manifest.pageSize(), manifest.fillFactor(),
                manifest.source(), manifest.loadedAt(), manifest.loadSeconds(), metas);
        written.write(storeDir);
        syncManifest(storeDir);
    }

    /** Syncs {@code store.json} and its directory: a journal is deleted only once the manifest holds its counts. */
    public static void syncManifest(Path storeDir) {
        Directories.sync(storeDir.resolve(StoreManifest.FILE_NAME));
        Directories.syncDirectory(storeDir);
    }

    @FunctionalInterface
    private interface Encoder {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] encode(Encoder e) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream d = new DataOutputStream(bytes)) {
            e.write(d);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream decode(byte[] payload) {
        return new DataInputStream(new ByteArrayInputStream(payload));
    }
}
