package org.oooengine.core.cluster;

import io.trino.tpch.TpchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.oooengine.core.exec.JoinSpec;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.tpch.DuckDbOracle;
import org.oooengine.core.tpch.GeneratedTpch;
import org.oooengine.core.tpch.OracleRows;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.types.DataType;

/**
 * The fixture of the distributed tests: TPC-H at one scale factor loaded over the wire into a
 * cluster of nodes in this JVM, the same rows in a single-node store, and DuckDB holding them as
 * the oracle. Everything lives in one temporary directory, removed on close; the single store and
 * DuckDB's rows are copied from {@link GeneratedTpch}, which makes them once per JVM.
 */
public final class TpchCluster implements AutoCloseable {
    public final Path dir;
    public final TestCluster cluster;
    public final ClusterSession session;
    public final Store single;
    public final DuckDbOracle oracle;

    public TpchCluster(String name, int nodes, double scaleFactor, List<TpchTable<?>> oracleTables) throws Exception {
        this(name, nodes, scaleFactor, oracleTables, NodeService.Caps.DEFAULTS);
    }

    /** As above, every node granting its queries no more than {@code caps}. */
    public TpchCluster(String name, int nodes, double scaleFactor, List<TpchTable<?>> oracleTables,
                       NodeService.Caps caps) throws Exception {
        this(name, nodes, scaleFactor, oracleTables, caps, 1);
    }

    /** As above, each partition on {@code replication} nodes. */
    public TpchCluster(String name, int nodes, double scaleFactor, List<TpchTable<?>> oracleTables,
                       NodeService.Caps caps, int replication) throws Exception {
        this(name, nodes, scaleFactor, oracleTables, caps, replication, org.oooengine.core.net.WireCompression.NONE);
    }

    /** As above, the members' frames compressed as {@code compression} says. */
    public TpchCluster(String name, int nodes, double scaleFactor, List<TpchTable<?>> oracleTables,
                       NodeService.Caps caps, int replication, org.oooengine.core.net.WireCompression compression)
            throws Exception {
        dir = Files.createTempDirectory(name);
        cluster = new TestCluster(dir.resolve("cluster"), nodes, caps, replication, compression);
        session = cluster.session();
        TpchLoader generator = new TpchLoader(scaleFactor, 4096, 1.0);
        new ClusterLoader(session.peers()).loadTpch(generator, (t, d, e) -> { });
        GeneratedTpch.copyStore(generator, dir.resolve("single"));
        single = Store.open(dir.resolve("single"), StoreOptions.defaults().withIoThreads(8));
        oracle = new DuckDbOracle(scaleFactor, oracleTables);
    }

    /**
     * Three nodes keeping each partition twice, TPC-H SF 0.01, with the oracle's tables of the
     * index joins OL, PL, Q3 and Q8': what the tests of copies run on.
     */
    public static TpchCluster withCopies(String name) throws Exception {
        return new TpchCluster(name, 3, 0.01, List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.PART,
                TpchTable.CUSTOMER, TpchTable.NATION, TpchTable.REGION, TpchTable.SUPPLIER), NodeService.Caps.DEFAULTS, 2);
    }

    /** The oracle's rows for {@code spec}, rendered and sorted. */
    public List<String> expected(JoinSpec spec) throws Exception {
        return oracle.query(OracleRows.sql(single, spec));
    }

    /** {@code rows} of {@code spec} rendered and sorted as the oracle's are. */
    public List<String> render(JoinSpec spec, List<Object[]> rows) {
        return OracleRows.render(single, spec, rows);
    }

    /** A value of {@code table.column} as SQL and the engine's text formats write it. */
    public String format(String table, String column, Object value) {
        var schema = single.table(table).schema();
        DataType type = schema.type(schema.indexOf(column));
        return type.format(value);
    }

    @Override
    public void close() throws Exception {
        try (AutoCloseable o = oracle; AutoCloseable s = single; AutoCloseable c = cluster; AutoCloseable x = session) {
            // closed in reverse order: the session, the nodes, the single store, DuckDB
        } finally {
            Directories.deleteRecursively(dir);
        }
    }
}
