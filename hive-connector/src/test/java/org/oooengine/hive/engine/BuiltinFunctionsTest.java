package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.trino.tpch.TpchTable;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprText;

/**
 * Hive's built-in functions over TPC-H columns on two nodes, against DuckDB where DuckDB agrees
 * with Hive (the same SQL, or DuckDB's spelling of it after ";;"); where Hive differs, against
 * DuckDB written to Hive's rule, or against the value Hive gives.
 */
class BuiltinFunctionsTest {
    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-functions-duckdb", 2,
            TpchTable.NATION, TpchTable.ORDERS, TpchTable.LINE_ITEM);

    @ParameterizedTest
    @CsvSource(delimiterString = " ;; ", quoteCharacter = '"', textBlock = """
        SELECT l_orderkey, l_linenumber, sqrt(l_extendedprice), ln(l_quantity), log10(l_extendedprice), log2(l_quantity), exp(l_discount), power(l_quantity, 2), pow(l_tax, 0.5), log(2, l_quantity) FROM lineitem WHERE l_orderkey < 3000 ;; SELECT l_orderkey, l_linenumber, sqrt(l_extendedprice), ln(l_quantity), log10(l_extendedprice), log2(l_quantity), exp(l_discount), power(l_quantity, 2), pow(l_tax, 0.5), ln(l_quantity) / ln(2) FROM lineitem WHERE l_orderkey < 3000
        SELECT o_orderkey, sign(o_totalprice - 150000), sign(o_custkey - 750), abs(o_totalprice - 150000) FROM orders ;; ""
        SELECT o_orderkey, pmod(o_custkey - 750, 7), pmod(o_totalprice, -1000), pmod(o_orderkey, 3) FROM orders ;; SELECT o_orderkey, ((o_custkey - 750) % 7 + 7) % 7, (o_totalprice % -1000 + -1000) % -1000, o_orderkey % 3 FROM orders
        SELECT l_orderkey, l_linenumber, greatest(l_shipdate, l_commitdate, l_receiptdate), least(l_quantity, l_discount * 100, 25), greatest(l_shipmode, l_shipinstruct), least(l_linenumber, 3) FROM lineitem WHERE l_orderkey < 5000 ;; ""
        SELECT l_orderkey, l_linenumber, trunc(l_extendedprice, 1), trunc(l_extendedprice), trunc(l_extendedprice, -2), trunc(l_orderkey, -1), trunc(l_quantity - 25) FROM lineitem WHERE l_orderkey < 3000 ;; SELECT l_orderkey, l_linenumber, trunc(l_extendedprice * 10) / 10, trunc(l_extendedprice), trunc(l_extendedprice / 100) * 100, l_orderkey // 10 * 10, trunc(l_quantity - 25) FROM lineitem WHERE l_orderkey < 3000
        SELECT l_orderkey, l_linenumber, nullif(l_linenumber, 1), nullif(l_shipmode, 'AIR'), nullif(l_shipdate, '1996-03-13'), coalesce(nullif(l_returnflag, 'N'), 'none') FROM lineitem WHERE l_orderkey < 3000 ;; ""
        SELECT o_orderkey, lpad(o_orderpriority, 12, '*'), rpad(o_clerk, 20, 'ab'), lpad(o_orderstatus, 0, 'x'), rpad(o_comment, 10, '-'), repeat(o_orderstatus, 3), replace(o_clerk, 'Clerk#', 'C'), instr(o_comment, 'the'), reverse(o_orderpriority), concat_ws('/', o_orderstatus, o_orderpriority, o_clerk), length(o_comment), upper(o_comment), lower(o_clerk) FROM orders ;; ""
        SELECT o_orderkey, ascii(o_comment), ascii(o_orderpriority), ascii(c) FROM (SELECT o_orderkey, o_comment, o_orderpriority, CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_clerk END AS c FROM orders) t ;; ""
        SELECT o_orderkey, locate('a', o_comment), locate('ly', o_comment), ltrim(concat('  ', o_orderstatus, '  ')), rtrim(concat('  ', o_orderstatus, '  ')), trim(concat('  ', o_orderstatus, '  ')) FROM orders ;; SELECT o_orderkey, position('a' IN o_comment), position('ly' IN o_comment), ltrim(concat('  ', o_orderstatus, '  ')), rtrim(concat('  ', o_orderstatus, '  ')), trim(concat('  ', o_orderstatus, '  ')) FROM orders
        SELECT o_orderkey, lpad(c, 50, 'x'), rpad(c, 5, '.'), concat_ws('-', c, o_clerk, c), nullif(c, o_clerk), reverse(c), length(c), instr(c, 'the'), replace(c, 'e', 'E'), repeat(c, 2), upper(c) FROM (SELECT o_orderkey, o_clerk, CASE WHEN o_orderkey % 3 = 0 THEN NULL ELSE o_comment END AS c FROM orders) t ;; ""
        SELECT o_orderkey, date_add(o_orderdate, 30), date_sub(o_orderdate, 45), datediff(o_orderdate, DATE '1995-01-01'), datediff('1995-01-01', o_orderdate), quarter(o_orderdate), year(o_orderdate), month(o_orderdate), day(o_orderdate) FROM orders ;; SELECT o_orderkey, o_orderdate + 30, o_orderdate - 45, o_orderdate - DATE '1995-01-01', DATE '1995-01-01' - o_orderdate, quarter(o_orderdate), year(o_orderdate), month(o_orderdate), day(o_orderdate) FROM orders
        SELECT o_orderkey, last_day(o_orderdate), date_format(o_orderdate, 'yyyy-MM'), date_format(o_orderdate, 'dd/MM/yy'), trunc(o_orderdate, 'MM'), trunc(o_orderdate, 'Q'), trunc(o_orderdate, 'YEAR') FROM orders ;; SELECT o_orderkey, CAST(last_day(o_orderdate) AS VARCHAR), strftime(o_orderdate, '%Y-%m'), strftime(o_orderdate, '%d/%m/%y'), CAST(CAST(date_trunc('month', o_orderdate) AS DATE) AS VARCHAR), CAST(CAST(date_trunc('quarter', o_orderdate) AS DATE) AS VARCHAR), CAST(CAST(date_trunc('year', o_orderdate) AS DATE) AS VARCHAR) FROM orders
        SELECT o_orderkey, date_add(CAST(o_orderdate AS STRING), 1), date_sub(concat(CAST(o_orderdate AS STRING), ' 23:59:59'), 1), datediff(CAST(o_orderdate AS STRING), '1992-01-01 12:00:00') FROM orders ;; SELECT o_orderkey, o_orderdate + 1, o_orderdate - 1, o_orderdate - DATE '1992-01-01' FROM orders
        SELECT o_orderkey, hour(ts), minute(ts), second(ts), date_format(ts, 'yyyy-MM-dd HH:mm:ss'), quarter(ts) FROM (SELECT o_orderkey, concat(CAST(o_orderdate AS STRING), ' ', lpad(CAST(o_orderkey % 24 AS STRING), 2, '0'), ':', lpad(CAST(o_custkey % 60 AS STRING), 2, '0'), ':', lpad(CAST(o_orderkey % 59 AS STRING), 2, '0')) AS ts FROM orders) t ;; SELECT o_orderkey, hour(CAST(ts AS TIMESTAMP)), minute(CAST(ts AS TIMESTAMP)), second(CAST(ts AS TIMESTAMP)), ts, quarter(CAST(ts AS TIMESTAMP)) FROM (SELECT o_orderkey, concat(CAST(o_orderdate AS STRING), ' ', lpad(CAST(o_orderkey % 24 AS STRING), 2, '0'), ':', lpad(CAST(o_custkey % 60 AS STRING), 2, '0'), ':', lpad(CAST(o_orderkey % 59 AS STRING), 2, '0')) AS ts FROM orders) t
        SELECT o_orderpriority, count(*), max(length(o_comment)), min(reverse(o_clerk)), sum(datediff(o_orderdate, '1992-01-01')) FROM orders GROUP BY o_orderpriority ;; SELECT o_orderpriority, count(*), max(length(o_comment)), min(reverse(o_clerk)), sum(o_orderdate - DATE '1992-01-01') FROM orders GROUP BY o_orderpriority
        SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1998-08-02' - INTERVAL 30 DAY ;; ""
        SELECT count(*) FROM orders WHERE o_orderdate < DATE '1993-01-01' + interval '5' day AND o_orderdate >= date_sub('1993-01-01', 30) ;; SELECT count(*) FROM orders WHERE o_orderdate < DATE '1993-01-01' + interval '5' day AND o_orderdate >= DATE '1993-01-01' - 30
        SELECT o_orderkey, o_orderdate + INTERVAL '5' DAY, o_orderdate - INTERVAL 30 DAY, o_orderdate + INTERVAL 2 MONTH, o_orderdate - INTERVAL 1 YEAR FROM orders ;; SELECT o_orderkey, CAST(o_orderdate + INTERVAL '5' DAY AS DATE), CAST(o_orderdate - INTERVAL 30 DAY AS DATE), CAST(o_orderdate + INTERVAL 2 MONTH AS DATE), CAST(o_orderdate - INTERVAL 1 YEAR AS DATE) FROM orders
        """)
    void matchesDuckDb(String ours, String duckDb) throws Exception {
        String expected = duckDb.isEmpty() ? ours : duckDb;
        assertNull(OracleComparison.difference(cluster.run(ours), cluster.oracle().rows(expected), false), ours);
    }

    /**
     * Where Hive differs from DuckDB, DuckDB written to Hive's rule. greatest and least are NULL
     * when any argument is (Hive's GenericUDFBaseNwayCompare; DuckDB skips NULLs). add_months
     * keeps a month's last day the last (Hive's GenericUDFAddMonths; DuckDB keeps the day number).
     */
    @ParameterizedTest
    @CsvSource(delimiterString = " ;; ", quoteCharacter = '"', textBlock = """
        SELECT n_nationkey, greatest(n_nationkey, CASE WHEN n_nationkey > 20 THEN NULL ELSE 10 END), least(n_name, CASE WHEN n_regionkey = 1 THEN NULL ELSE 'K' END) FROM nation ;; SELECT n_nationkey, CASE WHEN n_nationkey > 20 THEN NULL ELSE greatest(n_nationkey, 10) END, CASE WHEN n_regionkey = 1 THEN NULL ELSE least(n_name, 'K') END FROM nation
        SELECT o_orderkey, add_months(o_orderdate, 1), add_months(o_orderdate, -13) FROM orders ;; SELECT o_orderkey, CAST(CAST(CASE WHEN o_orderdate = last_day(o_orderdate) THEN last_day(o_orderdate + INTERVAL 1 MONTH) ELSE o_orderdate + INTERVAL 1 MONTH END AS DATE) AS VARCHAR), CAST(CAST(CASE WHEN o_orderdate = last_day(o_orderdate) THEN last_day(o_orderdate - INTERVAL 13 MONTH) ELSE o_orderdate - INTERVAL 13 MONTH END AS DATE) AS VARCHAR) FROM orders
        """)
    void matchesDuckDbWrittenToHivesRule(String ours, String duckDb) throws Exception {
        assertNull(OracleComparison.difference(cluster.run(ours), cluster.oracle().rows(duckDb), false), ours);
    }

    /** Hive's answers where DuckDB has none to compare with or gives another (an error, NaN, -inf). */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = " ;; ", quoteCharacter = '"', textBlock = """
        sqrt(-4) ;; NULL
        ln(0) ;; NULL
        log10(-1) ;; NULL
        log(1, 8) ;; NULL
        log(8) ;; 2.0794415416798357
        pmod(5, 0) ;; NULL
        pmod(-7.5, 2) ;; 0.5
        trunc(0.3D, 1) ;; 0.2
        trunc(-2.75, 1) ;; -2.7
        trunc(DATE '2024-05-17', 'mm') ;; NULL
        trunc('2024-05-17 10:00:00', 'YY') ;; '2024-01-01'
        date_add('2024-02-30', 1) ;; NULL
        date_add('not a date', 1) ;; NULL
        datediff(NULL, '2024-01-01') ;; NULL
        hour('10:11:12') ;; 10
        second('2024-05-17') ;; 0
        minute('2024-05-17 25:00:00') ;; NULL
        date_format('2024-05-17 13:45:30', 'HH:mm') ;; '13:45'
        date_format(DATE '2024-05-17', 'D') ;; '138'
        lpad('ab', 5, '') ;; NULL
        lpad('ab', -1, 'x') ;; NULL
        rpad('ab', 2, '') ;; 'ab'
        repeat('ab', -1) ;; ''
        replace('abc', '', 'x') ;; 'abc'
        locate('l', 'hello', 0) ;; 0
        locate('', 'hello') ;; 1
        instr('hello', 'z') ;; 0
        ascii('') ;; 0
        ascii('é') ;; -61
        ascii(NULL) ;; NULL
        concat_ws(NULL, 'a', 'b') ;; NULL
        concat_ws('', 'a', NULL) ;; 'a'
        trim('\tab\t') ;; '\tab\t'
        nullif(NULL, 1) ;; NULL
        nullif(1, NULL) ;; 1
        greatest(2, 1.5) ;; 2.0
        least(DATE '2024-01-02', '2024-01-01') ;; DATE '2024-01-01'
        sign(0) ;; 0.0
        add_months('2024-03-31', -1) ;; '2024-02-29'
        last_day(NULL) ;; NULL
        """)
    void givesHivesValue(String expression, String expected) {
        String sql = "SELECT " + expression.replace("\\t", "\t");
        List<Object[]> rows = cluster.run(sql);
        assertEquals(expected.replace("\\t", "\t"), ExprText.literal(rows.get(0)[0], SqlType.STRING), sql);
    }
}
