package org.oooengine.core.fragment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;
import org.oooengine.core.sql.expr.ScalarFunction;
import org.oooengine.core.storage.Directories;
import org.oooengine.core.store.Store;
import org.oooengine.core.store.StoreOptions;
import org.oooengine.core.tpch.TpchLoader;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.KeyCodec;

/** The clustered-key range a filter allows: the bounds it takes, and those it must leave open. */
class KeyRangeTest {
    private static final Expr ORDERKEY = new Expr.Column(0, SqlType.BIGINT);
    private static final Expr QUANTITY = new Expr.Column(4, SqlType.decimal(15, 2));
    private static final KeyCodec KEYS = new KeyCodec(new DataType[] {DataType.BIGINT});
    private static Path dir;
    private static Store store;

    @BeforeAll
    static void load() throws Exception {
        dir = Files.createTempDirectory("ooo-keyrange");
        new TpchLoader(TpchLoader.MIN_SCALE_FACTOR, 4096, 1.0).load(dir.resolve("store"), false, (t, d, e) -> { });
        store = Store.open(dir.resolve("store"), StoreOptions.defaults());
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        Directories.deleteRecursively(dir);
    }

    @Test
    void comparisonsWithConstantsBoundTheKey() {
        assertRange(key(1000), null, range(call(ScalarFunction.GE, ORDERKEY, lit(1000L))));
        assertRange(KeyCodec.successor(key(1000)), null, range(call(ScalarFunction.GT, ORDERKEY, lit(1000L))));
        assertRange(null, key(1000), range(call(ScalarFunction.LT, ORDERKEY, lit(1000L))));
        assertRange(null, KeyCodec.successor(key(1000)), range(call(ScalarFunction.GE, lit(1000L), ORDERKEY)));
        assertRange(key(7), KeyCodec.successor(key(7)), range(call(ScalarFunction.EQ, lit(7), ORDERKEY)));
        // the tightest of several, other columns ignored
        assertRange(key(20), key(30), range(new Expr.And(List.of(call(ScalarFunction.GT, ORDERKEY, lit(10L)),
                call(ScalarFunction.GE, ORDERKEY, lit(20L)), call(ScalarFunction.LT, QUANTITY, lit(5L)),
                call(ScalarFunction.LT, ORDERKEY, lit(30L))))));
    }

    @Test
    void whatCannotBoundTheKeyLeavesItOpen() {
        assertTrue(range(call(ScalarFunction.LT, ORDERKEY, new Expr.Literal(new BigDecimal("100.5"), SqlType.decimal(4, 1))))
                .isEmpty(), "a constant a BIGINT cannot hold");
        assertTrue(range(call(ScalarFunction.LT, QUANTITY, lit(5L))).isEmpty(), "not the key");
        assertTrue(range(new Expr.Or(List.of(call(ScalarFunction.LT, ORDERKEY, lit(5L)),
                call(ScalarFunction.GT, ORDERKEY, lit(50L))))).isEmpty(), "a disjunction");
        assertTrue(range(call(ScalarFunction.NE, ORDERKEY, lit(5L))).isEmpty());
        assertTrue(range(call(ScalarFunction.LT, ORDERKEY, Expr.Literal.NULL)).isEmpty());
        ScanPipeline projectFirst = new ScanPipeline("orders", 9, bits(0), List.of(new PipelineStep.Project(List.of(ORDERKEY)),
                new PipelineStep.Filter(call(ScalarFunction.LT, ORDERKEY, lit(5L)))));
        assertTrue(KeyRange.of(store.table("orders"), projectFirst).isEmpty(), "only a filter on the scanned rows");
    }

    private static Optional<KeyRange> range(Expr filter) {
        return KeyRange.of(store.table("orders"), new ScanPipeline("orders", 9, bits(0, 4), List.of(new PipelineStep.Filter(filter))));
    }

    private static void assertRange(byte[] from, byte[] to, Optional<KeyRange> range) {
        assertTrue(range.isPresent());
        if (from == null) {
            assertNull(range.get().from());
        } else {
            assertArrayEquals(from, range.get().from());
        }
        if (to == null) {
            assertNull(range.get().toExclusive());
        } else {
            assertArrayEquals(to, range.get().toExclusive());
        }
    }

    private static byte[] key(long v) {
        return KEYS.encodePrefix(new Object[] {v}, 1);
    }

    private static Expr call(ScalarFunction f, Expr a, Expr b) {
        return new Expr.Call(f, List.of(a, b), SqlType.BOOLEAN);
    }

    private static Expr lit(long v) {
        return new Expr.Literal(v, SqlType.BIGINT);
    }

    private static Expr lit(int v) {
        return new Expr.Literal(v, SqlType.INT);
    }

    private static BitSet bits(int... columns) {
        BitSet b = new BitSet();
        for (int c : columns) {
            b.set(c);
        }
        return b;
    }
}
