package org.oooengine.hive.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.ExprText;
import org.oooengine.core.sql.functions.FunctionCategory;
import org.oooengine.core.sql.functions.FunctionInfo;
import org.oooengine.core.sql.functions.Functions;

/**
 * The function registry and the engine agree: every example of every registered function (and
 * of each synonym) runs through the analyzer and gives the value the SQL reference shows, an
 * unregistered name is refused by name, and SHOW FUNCTIONS / DESCRIBE FUNCTION answer from the
 * registry.
 */
class FunctionRegistryTest {
    /** The aggregates' examples run over x = 1, 2, 3, 4 and NULL, as the reference says. */
    private static final String AGGREGATE_INPUT =
            " FROM (SELECT CASE WHEN n_nationkey < 4 THEN n_nationkey + 1 END AS x FROM nation WHERE n_nationkey <= 4) t";

    @RegisterExtension
    static final SqlCluster cluster = SqlCluster.of("ooo-functions", 1, TpchTable.NATION);

    static Stream<Arguments> examples() {
        List<Arguments> out = new ArrayList<>();
        for (FunctionInfo f : Functions.all()) {
            List<String> names = new ArrayList<>(f.aliases());
            names.add(0, f.name());
            for (FunctionInfo.Example e : f.examples()) {
                for (String name : names) {
                    if (name.equals(f.name()) || e.sql().startsWith(f.name() + "(")) {
                        String sql = name + e.sql().substring(e.sql().startsWith(f.name() + "(") ? f.name().length() : 0);
                        out.add(Arguments.of(name.equals(f.name()) ? e.sql() : sql, e.result(), f.aggregate() != null,
                                f.category() == FunctionCategory.GENERATOR));
                    }
                }
            }
        }
        return out.stream();
    }

    /** A table-generating function's example shows its first row, its columns separated by commas. */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("examples")
    void everyExampleGivesTheValueTheReferenceShows(String example, String result, boolean aggregate, boolean generator) {
        List<Object[]> rows = cluster.run("SELECT " + example + (aggregate ? AGGREGATE_INPUT : ""));
        if (!generator) {
            assertEquals(1, rows.size(), example);
        }
        List<String> columns = new ArrayList<>();
        for (Object v : rows.get(0)) {
            columns.add(ExprText.literal(v, SqlType.STRING));
        }
        assertEquals(result, String.join(", ", columns), example);
    }

    @Test
    void aNameNotInTheRegistryIsRefusedByName() {
        SqlException e = assertThrows(SqlException.class, () -> cluster.run("SELECT initcap(n_name) FROM nation"));
        assertEquals(SqlException.NOT_SUPPORTED, e.sqlState());
        assertTrue(e.getMessage().startsWith("not supported yet: function initcap at line 1:"), e.getMessage());
    }

    @Test
    void aCallWithTheWrongNumberOfArgumentsSaysHowManyItTakes() {
        SqlException e = assertThrows(SqlException.class, () -> cluster.run("SELECT lpad(n_name, 3) FROM nation"));
        assertEquals(SqlException.SYNTAX, e.sqlState());
        assertTrue(e.getMessage().startsWith("lpad takes 3 arguments, not 2"), e.getMessage());
        e = assertThrows(SqlException.class, () -> cluster.run("SELECT nvl(n_name, 'a', 'b') FROM nation"));
        assertTrue(e.getMessage().startsWith("nvl takes 2 arguments, not 3"), e.getMessage());
    }

    @Test
    void showFunctionsListsEveryNameTheRegistryResolves() {
        List<String> shown = cluster.run("SHOW FUNCTIONS").stream().map(r -> (String) r[0]).toList();
        assertEquals(List.copyOf(Functions.names()), shown);
        for (String name : List.of("trunc", "nullif", "pmod", "greatest", "least", "sign", "sqrt", "ln", "log10", "log2",
                "log", "exp", "power", "pow", "date_format", "last_day", "quarter", "add_months", "hour", "minute", "second",
                "lpad", "rpad", "repeat", "replace", "instr", "locate", "ltrim", "rtrim", "trim", "length", "reverse",
                "concat_ws", "upper", "lower", "date_add", "date_sub", "datediff", "coalesce", "ceil", "floor", "abs",
                "stddev_samp", "stddev", "stddev_pop", "variance", "var_pop", "var_samp")) {
            assertTrue(shown.contains(name), name);
        }
    }

    @Test
    void showFunctionsLikeTakesHivesPattern() {
        assertEquals(List.of("std", "stddev", "stddev_pop", "stddev_samp"),
                cluster.run("SHOW FUNCTIONS LIKE 'std*'").stream().map(r -> (String) r[0]).toList());
        assertEquals(List.of("ltrim", "rtrim", "trim", "upper"),
                cluster.run("SHOW FUNCTIONS LIKE '*trim|UPPER'").stream().map(r -> (String) r[0]).toList());
        assertEquals(List.of(), cluster.run("SHOW FUNCTIONS LIKE 'nothing*'"));
    }

    @Test
    void describeFunctionAnswersFromTheRegistry() {
        assertEquals(List.of("upper(STRING s) - s in upper case."), lines("DESCRIBE FUNCTION upper"));
        assertEquals(lines("DESCRIBE FUNCTION upper"), lines("DESCRIBE FUNCTION UCASE"));
        List<String> extended = lines("DESCRIBE FUNCTION EXTENDED stddev");
        assertEquals("stddev_pop(x) - The population standard deviation of the values: 0 for one value.", extended.get(0));
        assertTrue(extended.contains("Synonyms: stddev, std"), extended.toString());
        assertTrue(extended.contains("  > SELECT stddev_pop(x);"), extended.toString());
        assertTrue(extended.contains("Function type: BUILTIN"), extended.toString());
        assertEquals(List.of("Function 'initcap' does not exist."), lines("DESCRIBE FUNCTION initcap"));
        assertFalse(lines("DESC FUNCTION EXTENDED trunc").isEmpty());
    }

    private static List<String> lines(String sql) {
        return cluster.run(sql).stream().map(r -> (String) r[0]).toList();
    }
}
