package org.oooengine.core.sql.functions;

import static org.oooengine.core.sql.functions.FunctionCategory.AGGREGATE;
import static org.oooengine.core.sql.functions.FunctionCategory.COLLECTION;
import static org.oooengine.core.sql.functions.FunctionCategory.GENERATOR;
import static org.oooengine.core.sql.functions.FunctionCategory.CONDITIONAL;
import static org.oooengine.core.sql.functions.FunctionCategory.DATE;
import static org.oooengine.core.sql.functions.FunctionCategory.MATH;
import static org.oooengine.core.sql.functions.FunctionCategory.STRING;
import static org.oooengine.core.sql.functions.FunctionInfo.ANY;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.oooengine.core.sql.expr.AggregateCall;

/**
 * The built-in functions: the one list the analyzer resolves a call's name through (a name not
 * here is refused), {@code SHOW FUNCTIONS} and {@code DESCRIBE FUNCTION} answer from, and the SQL
 * reference (docs/sql-reference.md, {@link FunctionReferenceDoc}) is written from. Semantics are
 * Hive's; where they differ from other engines the description says so.
 */
public final class Functions {
    private static final List<FunctionInfo> ALL = List.of(
            // strings
            fn("ascii", STRING, 1, 1).sig("ascii(STRING s)", "INT")
                    .does("The code of the first character of `s` when it is ASCII; for any other character the first "
                            + "byte of its UTF-8 encoding as a signed byte, as Hive gives it (`ascii('é')` is -61); 0 for ''.")
                    .ex("ascii('Alpha')", "65").build(),
            fn("concat", STRING, 1, ANY).sig("concat(s1, s2, ...)", "STRING")
                    .does("The arguments, as text, one after the other; NULL when any is NULL.")
                    .ex("concat('ab', 'cd', 1)", "'abcd1'").build(),
            fn("concat_ws", STRING, 2, ANY).sig("concat_ws(STRING sep, s1, s2, ...)", "STRING")
                    .does("The strings joined by `sep`, NULL strings left out; NULL when `sep` is NULL.")
                    .ex("concat_ws('-', 'a', NULL, 'b')", "'a-b'").build(),
            fn("instr", STRING, 2, 2).sig("instr(STRING s, STRING sub)", "INT")
                    .does("The position (from 1) of the first `sub` in `s`; 0 when there is none.")
                    .ex("instr('hello', 'l')", "3").build(),
            fn("length", STRING, 1, 1).sig("length(STRING s)", "INT")
                    .does("The number of characters of `s`.")
                    .ex("length('hello')", "5").build(),
            fn("locate", STRING, 2, 3).sig("locate(STRING sub, STRING s [, INT from])", "INT")
                    .does("The position (from 1) of the first `sub` in `s` at or after position `from` (default 1); 0 when "
                            + "there is none.")
                    .ex("locate('l', 'hello', 4)", "4").build(),
            fn("lower", STRING, 1, 1).alias("lcase").sig("lower(STRING s)", "STRING")
                    .does("`s` in lower case.")
                    .ex("lower('AbC')", "'abc'").build(),
            fn("lpad", STRING, 3, 3).sig("lpad(STRING s, INT length, STRING pad)", "STRING")
                    .does("`s` padded on the left with repeats of `pad` to `length` characters, or cut to its first `length` "
                            + "characters; NULL when padding is needed and `pad` is empty, or `length` is negative.")
                    .ex("lpad('7', 3, '0')", "'007'").ex("lpad('hello', 2, '.')", "'he'").build(),
            fn("ltrim", STRING, 1, 1).sig("ltrim(STRING s)", "STRING")
                    .does("`s` without its leading spaces (other white space stays, as in Hive).")
                    .ex("ltrim('  ab  ')", "'ab  '").build(),
            fn("repeat", STRING, 2, 2).sig("repeat(STRING s, INT n)", "STRING")
                    .does("`s` repeated `n` times; empty when `n` is 0 or less.")
                    .ex("repeat('ab', 3)", "'ababab'").build(),
            fn("replace", STRING, 3, 3).sig("replace(STRING s, STRING search, STRING replacement)", "STRING")
                    .does("`s` with every `search` replaced by `replacement` (an empty `search` changes nothing).")
                    .ex("replace('a.b.c', '.', '/')", "'a/b/c'").build(),
            fn("reverse", STRING, 1, 1).sig("reverse(STRING s)", "STRING")
                    .does("The characters of `s` in reverse order.")
                    .ex("reverse('abc')", "'cba'").build(),
            fn("rpad", STRING, 3, 3).sig("rpad(STRING s, INT length, STRING pad)", "STRING")
                    .does("`s` padded on the right with repeats of `pad` to `length` characters, or cut to its first "
                            + "`length` characters; NULL when padding is needed and `pad` is empty, or `length` is negative.")
                    .ex("rpad('ab', 5, '.')", "'ab...'").build(),
            fn("rtrim", STRING, 1, 1).sig("rtrim(STRING s)", "STRING")
                    .does("`s` without its trailing spaces.")
                    .ex("rtrim('  ab  ')", "'  ab'").build(),
            fn("substr", STRING, 2, 3).alias("substring").sig("substr(STRING s, INT start [, INT length])", "STRING")
                    .does("The characters of `s` from position `start` (from 1; negative counts from the end), at most "
                            + "`length` of them.")
                    .ex("substr('hello', 2, 3)", "'ell'").ex("substr('hello', -3)", "'llo'").build(),
            fn("trim", STRING, 1, 1).sig("trim(STRING s)", "STRING")
                    .does("`s` without its leading and trailing spaces.")
                    .ex("trim('  a b  ')", "'a b'").build(),
            fn("upper", STRING, 1, 1).alias("ucase").sig("upper(STRING s)", "STRING")
                    .does("`s` in upper case.")
                    .ex("upper('AbC')", "'ABC'").build(),
            // mathematics
            fn("abs", MATH, 1, 1).sig("abs(x)", "the type of x")
                    .does("The absolute value of `x`.")
                    .ex("abs(-2.5)", "2.5").build(),
            fn("ceil", MATH, 1, 1).alias("ceiling").sig("ceil(x)", "BIGINT")
                    .does("The smallest integer not less than `x`.")
                    .ex("ceil(2.1)", "3").build(),
            fn("exp", MATH, 1, 1).sig("exp(x)", "DOUBLE")
                    .does("e raised to the power `x`.")
                    .ex("exp(0)", "1.0").build(),
            fn("floor", MATH, 1, 1).sig("floor(x)", "BIGINT")
                    .does("The largest integer not greater than `x`.")
                    .ex("floor(-2.1)", "-3").build(),
            fn("ln", MATH, 1, 1).sig("ln(x)", "DOUBLE")
                    .does("The natural logarithm of `x`; NULL when `x` is 0 or less.")
                    .ex("ln(1)", "0.0").ex("ln(0)", "NULL").build(),
            fn("log", MATH, 1, 2).sig("log(base, x)", "DOUBLE").sig("log(x)", "DOUBLE")
                    .does("The logarithm of `x` to `base` (natural without one); NULL when `x` is 0 or less or, as in "
                            + "Hive, `base` is 1 or less.")
                    .ex("log(10, 100)", "2.0").ex("log(0.5, 4)", "NULL").build(),
            fn("log10", MATH, 1, 1).sig("log10(x)", "DOUBLE")
                    .does("The base-10 logarithm of `x`; NULL when `x` is 0 or less.")
                    .ex("log10(1000)", "3.0").build(),
            fn("log2", MATH, 1, 1).sig("log2(x)", "DOUBLE")
                    .does("The base-2 logarithm of `x`; NULL when `x` is 0 or less.")
                    .ex("log2(8)", "3.0").build(),
            fn("pmod", MATH, 2, 2).sig("pmod(a, b)", "the common type of a and b")
                    .does("The positive remainder of `a` divided by `b` (it has the sign of `b`); NULL when `b` is 0.")
                    .ex("pmod(-7, 3)", "2").ex("-7 % 3", "-1").build(),
            fn("power", MATH, 2, 2).alias("pow").sig("power(x, y)", "DOUBLE")
                    .does("`x` raised to the power `y`.")
                    .ex("power(2, 10)", "1024.0").build(),
            fn("round", MATH, 1, 2).sig("round(x [, INT d])", "the type of x (a DECIMAL with at most d digits of scale)")
                    .does("`x` rounded half away from zero to `d` decimal places (default 0).")
                    .ex("round(2.567, 2)", "2.57").build(),
            fn("sign", MATH, 1, 1).sig("sign(x)", "DOUBLE; INT for a DECIMAL")
                    .does("-1, 0 or 1 as `x` is negative, zero or positive.")
                    .ex("sign(-7)", "-1.0").ex("sign(2.50)", "1").build(),
            fn("sqrt", MATH, 1, 1).sig("sqrt(x)", "DOUBLE")
                    .does("The square root of `x`; NULL when `x` is negative.")
                    .ex("sqrt(16)", "4.0").ex("sqrt(-1)", "NULL").build(),
            fn("trunc", MATH, 1, 2).sig("trunc(x [, INT d])", "the type of x (a DECIMAL with at most d digits of scale)")
                    .sig("trunc(DATE|TIMESTAMP|STRING date, STRING format)", "STRING")
                    .does("A number cut toward zero to `d` decimal places (default 0; negative: digits left of the point "
                            + "become 0). A date cut to the first day of its month (`'MONTH'`, `'MON'`, `'MM'`), quarter "
                            + "(`'QUARTER'`, `'Q'`) or year (`'YEAR'`, `'YYYY'`, `'YY'`), as text; another format (also in "
                            + "lower case, as in Hive) gives NULL.")
                    .ex("trunc(123.456, 1)", "123.4").ex("trunc(-1234, -2)", "-1200")
                    .ex("trunc(DATE '2024-05-17', 'Q')", "'2024-04-01'").build(),
            // dates
            fn("add_months", DATE, 2, 2).sig("add_months(date, INT n)", "STRING")
                    .does("The date `n` months later, as text; the day is kept where the month has it, else the month's "
                            + "last, and the last day of a month gives the last day of the other (Hive's rule).")
                    .ex("add_months('2024-01-31', 1)", "'2024-02-29'").ex("add_months(DATE '2024-02-29', 1)", "'2024-03-31'")
                    .build(),
            fn("current_date", DATE, 0, 0).sig("current_date", "DATE")
                    .does("Today at UTC, the engine's time zone, when the statement started.")
                    .ex("current_date >= DATE '2024-01-01'", "TRUE").build(),
            fn("current_timestamp", DATE, 0, 0).sig("current_timestamp", "TIMESTAMP")
                    .does("The date and time at UTC, the engine's time zone, to the millisecond, when the statement "
                            + "started: every call in a statement gives the same value, as in Hive.")
                    .ex("current_timestamp > TIMESTAMP '2024-01-01 00:00:00'", "TRUE").build(),
            fn("date_add", DATE, 2, 2).sig("date_add(date, INT days)", "DATE")
                    .does("The date `days` days later.")
                    .ex("date_add(DATE '2024-02-28', 2)", "DATE '2024-03-01'").build(),
            fn("date_format", DATE, 2, 2).sig("date_format(date, STRING pattern)", "STRING")
                    .does("The date or timestamp written with a Java SimpleDateFormat pattern, as Hive writes it; "
                            + "NULL for a pattern it cannot read.")
                    .ex("date_format(DATE '2024-05-17', 'yyyy/MM EEE')", "'2024/05 Fri'")
                    .ex("date_format(TIMESTAMP '2024-05-17 13:45:30.25', 'HH:mm:ss.SSS')", "'13:45:30.250'").build(),
            fn("date_sub", DATE, 2, 2).sig("date_sub(date, INT days)", "DATE")
                    .does("The date `days` days earlier.")
                    .ex("date_sub('2024-03-01 10:00:00', 1)", "DATE '2024-02-29'").build(),
            fn("datediff", DATE, 2, 2).sig("datediff(end, start)", "INT")
                    .does("The number of days from `start` to `end`.")
                    .ex("datediff('2024-03-01', DATE '2024-02-01')", "29").build(),
            fn("day", DATE, 1, 1).alias("dayofmonth").sig("day(date)", "INT")
                    .does("The day of the month of the date.")
                    .ex("day(DATE '2024-05-17')", "17").build(),
            fn("from_unixtime", DATE, 1, 2).sig("from_unixtime(BIGINT seconds [, STRING pattern])", "STRING")
                    .does("The time `seconds` after 1970-01-01 00:00:00 at UTC, written with a Java SimpleDateFormat "
                            + "pattern (default `'yyyy-MM-dd HH:mm:ss'`).")
                    .ex("from_unixtime(1715953530)", "'2024-05-17 13:45:30'")
                    .ex("from_unixtime(0, 'yyyy/MM/dd')", "'1970/01/01'").build(),
            fn("hour", DATE, 1, 1).sig("hour(timestamp)", "INT")
                    .does("The hour of a timestamp (a TIMESTAMP, or text `'yyyy-MM-dd HH:mm:ss'` or `'HH:mm:ss'`; a date "
                            + "alone is at hour 0).")
                    .ex("hour(TIMESTAMP '2024-05-17 13:45:30')", "13").ex("hour('2024-05-17 13:45:30')", "13").build(),
            fn("last_day", DATE, 1, 1).sig("last_day(date)", "STRING")
                    .does("The last day of the date's month, as text.")
                    .ex("last_day('2024-02-10')", "'2024-02-29'").build(),
            fn("minute", DATE, 1, 1).sig("minute(timestamp)", "INT")
                    .does("The minute of a timestamp.")
                    .ex("minute('2024-05-17 13:45:30')", "45").build(),
            fn("month", DATE, 1, 1).sig("month(date)", "INT")
                    .does("The month (1 to 12) of the date.")
                    .ex("month(DATE '2024-05-17')", "5").build(),
            fn("quarter", DATE, 1, 1).sig("quarter(date)", "INT")
                    .does("The quarter (1 to 4) of the date.")
                    .ex("quarter(DATE '2024-05-17')", "2").build(),
            fn("second", DATE, 1, 1).sig("second(timestamp)", "INT")
                    .does("The second of a timestamp.")
                    .ex("second('13:45:30')", "30").build(),
            fn("to_date", DATE, 1, 1).sig("to_date(timestamp)", "DATE")
                    .does("The date of a timestamp (or of a date, or of text Hive reads as one).")
                    .ex("to_date(TIMESTAMP '2024-05-17 13:45:30')", "DATE '2024-05-17'")
                    .ex("to_date('2024-05-17 13:45:30')", "DATE '2024-05-17'").build(),
            fn("unix_timestamp", DATE, 0, 2).sig("unix_timestamp()", "BIGINT")
                    .sig("unix_timestamp(timestamp [, STRING pattern])", "BIGINT")
                    .does("The seconds since 1970-01-01 00:00:00 at UTC, the engine's time zone: now (when the statement "
                            + "started), or of a TIMESTAMP or DATE, or of text read with a Java SimpleDateFormat pattern "
                            + "(default `'yyyy-MM-dd HH:mm:ss'`); NULL for text that does not parse.")
                    .ex("unix_timestamp(TIMESTAMP '2024-05-17 13:45:30')", "1715953530")
                    .ex("unix_timestamp('2024/05/17', 'yyyy/MM/dd')", "1715904000")
                    .ex("unix_timestamp('not a time')", "NULL").build(),
            fn("year", DATE, 1, 1).sig("year(date)", "INT")
                    .does("The year of the date.")
                    .ex("year(TIMESTAMP '2024-05-17 13:45:30')", "2024")
                    .ex("year(DATE '2024-05-17')", "2024").build(),
            // conditionals
            fn("coalesce", CONDITIONAL, 1, ANY).sig("coalesce(v1, v2, ...)", "the common type of the arguments")
                    .does("The first argument that is not NULL; NULL when all are.")
                    .ex("coalesce(NULL, 2, 3)", "2").build(),
            fn("greatest", CONDITIONAL, 2, ANY).sig("greatest(v1, v2, ...)", "the common type of the arguments")
                    .does("The largest argument; NULL when any argument is NULL (Hive's rule; some engines skip NULLs).")
                    .ex("greatest(3, 7, 5)", "7").ex("greatest(1, NULL)", "NULL").build(),
            fn("if", CONDITIONAL, 3, 3).sig("if(BOOLEAN condition, a, b)", "the common type of a and b")
                    .does("`a` when the condition is true, else `b` (also when it is NULL).")
                    .ex("if(1 < 2, 'yes', 'no')", "'yes'").build(),
            fn("isnotnull", CONDITIONAL, 1, 1).sig("isnotnull(x)", "BOOLEAN")
                    .does("Whether `x` is not NULL: `x IS NOT NULL`.")
                    .ex("isnotnull(1)", "TRUE").build(),
            fn("isnull", CONDITIONAL, 1, 1).sig("isnull(x)", "BOOLEAN")
                    .does("Whether `x` is NULL: `x IS NULL`.")
                    .ex("isnull(NULL)", "TRUE").build(),
            fn("least", CONDITIONAL, 2, ANY).sig("least(v1, v2, ...)", "the common type of the arguments")
                    .does("The smallest argument; NULL when any argument is NULL.")
                    .ex("least('b', 'a', 'c')", "'a'").build(),
            fn("nullif", CONDITIONAL, 2, 2).sig("nullif(a, b)", "the type of a (compared with b as `a = b` compares)")
                    .does("NULL when `a` equals `b`, else `a`.")
                    .ex("nullif(3, 3)", "NULL").ex("nullif(3, 4)", "3").build(),
            fn("nvl", CONDITIONAL, 2, 2).sig("nvl(value, default)", "the common type of the arguments")
                    .does("`value`, or `default` when `value` is NULL.")
                    .ex("nvl(NULL, 'none')", "'none'").build(),
            // arrays and maps
            fn("array", COLLECTION, 0, ANY).sig("array(v1, v2, ...)", "ARRAY of the common type of the values")
                    .does("An array of the values, brought to one type; `array()` is an empty ARRAY<STRING>.")
                    .ex("array(1, 2, 3)", "array(1, 2, 3)").ex("array('a', NULL)", "array('a', NULL)").build(),
            fn("array_contains", COLLECTION, 2, 2).sig("array_contains(ARRAY a, v)", "BOOLEAN")
                    .does("Whether an element of `a` equals `v`; FALSE, not NULL, when `a` or `v` is NULL (as in Hive).")
                    .ex("array_contains(array(1, 2), 2)", "TRUE").ex("array_contains(array(1, 2), NULL)", "FALSE").build(),
            fn("map", COLLECTION, 0, ANY).sig("map(k1, v1, k2, v2, ...)", "MAP of the keys' and the values' common types")
                    .does("A map of the keys to the values, in the order given; a repeated key keeps its last value.")
                    .ex("map('a', 1, 'b', 2)", "map('a', 1, 'b', 2)").ex("map('a', 1, 'b', 2)['b']", "2").build(),
            fn("map_keys", COLLECTION, 1, 1).sig("map_keys(MAP m)", "ARRAY of the key type")
                    .does("The keys of `m`, in its order; an empty array for NULL (as in Hive).")
                    .ex("map_keys(map('a', 1, 'b', 2))", "array('a', 'b')").build(),
            fn("map_values", COLLECTION, 1, 1).sig("map_values(MAP m)", "ARRAY of the value type")
                    .does("The values of `m`, in its order; an empty array for NULL (as in Hive).")
                    .ex("map_values(map('a', 1, 'b', 2))", "array(1, 2)").build(),
            fn("size", COLLECTION, 1, 1).sig("size(ARRAY a)", "INT").sig("size(MAP m)", "INT")
                    .does("The number of elements of an array or entries of a map; -1 for NULL (as in Hive).")
                    .ex("size(array(1, 2, 3))", "3").ex("size(map('a', 1))", "1").build(),
            fn("sort_array", COLLECTION, 1, 1).sig("sort_array(ARRAY a)", "the type of a")
                    .does("The elements of `a` in ascending order, NULLs first.")
                    .ex("sort_array(array(3, NULL, 1))", "array(NULL, 1, 3)").build(),
            fn("split", COLLECTION, 2, 2).sig("split(STRING s, STRING regex)", "ARRAY<STRING>")
                    .does("`s` cut at every match of the Java regular expression `regex`; empty strings between or after "
                            + "separators are kept (Hive's rule).")
                    .ex("split('a,b,,c', ',')", "array('a', 'b', '', 'c')").ex("split('a1b22c', '[0-9]+')", "array('a', 'b', 'c')")
                    .build(),
            // aggregates
            fn("collect_list", AGGREGATE, 1, 1).agg(AggregateCall.Kind.COLLECT_LIST).sig("collect_list(x)", "ARRAY of the type of x")
                    .does("The values, in the order the rows arrive (no order is promised: `sort_array` gives one).")
                    .ex("collect_list(x)", "array(1, 2, 3, 4)").build(),
            fn("collect_set", AGGREGATE, 1, 1).agg(AggregateCall.Kind.COLLECT_SET).sig("collect_set(x)", "ARRAY of the type of x")
                    .does("The distinct values, in the order they first arrive (no order is promised: `sort_array` gives one).")
                    .ex("collect_set(x)", "array(1, 2, 3, 4)").build(),
            fn("approx_count_distinct", AGGREGATE, 1, 1).agg(AggregateCall.Kind.APPROX_DISTINCT).alias("ndv")
                    .sig("approx_count_distinct(x)", "BIGINT")
                    .does("The number of distinct values, estimated from a HyperLogLog sketch of 4 KiB per group (about "
                            + "1.6% standard error) rather than from the values themselves, so that each node sketches its "
                            + "own rows; exact for a few values. `ndv` is the same function.")
                    .ex("approx_count_distinct(x)", "4").build(),
            fn("avg", AGGREGATE, 1, 1).agg(AggregateCall.Kind.AVG)
                    .sig("avg(x)", "DOUBLE; a DECIMAL with 4 more digits of scale for a DECIMAL")
                    .does("The mean of the values.")
                    .ex("avg(x)", "2.5").build(),
            fn("count", AGGREGATE, 1, 1).agg(AggregateCall.Kind.COUNT).sig("count(*)", "BIGINT").sig("count(x)", "BIGINT")
                    .does("The number of rows (`*`), or of values that are not NULL.")
                    .ex("count(*)", "5").ex("count(x)", "4").build(),
            fn("max", AGGREGATE, 1, 1).agg(AggregateCall.Kind.MAX).sig("max(x)", "the type of x")
                    .does("The largest value.")
                    .ex("max(x)", "4").build(),
            fn("min", AGGREGATE, 1, 1).agg(AggregateCall.Kind.MIN).sig("min(x)", "the type of x")
                    .does("The smallest value.")
                    .ex("min(x)", "1").build(),
            fn("stddev_pop", AGGREGATE, 1, 1).agg(AggregateCall.Kind.STDDEV_POP).alias("stddev").alias("std")
                    .sig("stddev_pop(x)", "DOUBLE")
                    .does("The population standard deviation of the values: 0 for one value.")
                    .ex("stddev_pop(x)", "1.118033988749895").build(),
            fn("stddev_samp", AGGREGATE, 1, 1).agg(AggregateCall.Kind.STDDEV_SAMP).sig("stddev_samp(x)", "DOUBLE")
                    .does("The sample standard deviation of the values: NULL for fewer than two.")
                    .ex("stddev_samp(x)", "1.2909944487358056").build(),
            fn("sum", AGGREGATE, 1, 1).agg(AggregateCall.Kind.SUM)
                    .sig("sum(x)", "BIGINT for integers, DOUBLE, or a DECIMAL with 10 more digits")
                    .does("The sum of the values.")
                    .ex("sum(x)", "10").build(),
            fn("var_pop", AGGREGATE, 1, 1).agg(AggregateCall.Kind.VAR_POP).alias("variance").sig("var_pop(x)", "DOUBLE")
                    .does("The population variance of the values: 0 for one value.")
                    .ex("var_pop(x)", "1.25").build(),
            fn("var_samp", AGGREGATE, 1, 1).agg(AggregateCall.Kind.VAR_SAMP).sig("var_samp(x)", "DOUBLE")
                    .does("The sample variance of the values: NULL for fewer than two.")
                    .ex("var_samp(x)", "1.6666666666666667").build(),
            // table-generating functions
            fn("explode", GENERATOR, 1, 1).sig("explode(ARRAY a)", "a row per element: `col`")
                    .sig("explode(MAP m)", "a row per entry: `key`, `value`")
                    .does("A row for each element of the array, or each entry of the map; none for NULL or an empty one "
                            + "(but see OUTER).")
                    .ex("explode(array(7, 8))", "7").ex("explode(map('a', 1))", "'a', 1").build(),
            fn("posexplode", GENERATOR, 1, 1).sig("posexplode(ARRAY a)", "a row per element: `pos` (INT, from 0), `val`")
                    .does("A row for each element of the array with its position, counted from 0 as in Hive.")
                    .ex("posexplode(array('a', 'b'))", "0, 'a'").build());

    private static final Map<String, FunctionInfo> BY_NAME = index();

    private Functions() {
    }

    private static Map<String, FunctionInfo> index() {
        Map<String, FunctionInfo> out = new LinkedHashMap<>();
        for (FunctionInfo f : ALL) {
            for (String name : names(f)) {
                if (out.put(name, f) != null) {
                    throw new IllegalStateException("function " + name + " registered twice");
                }
            }
        }
        return out;
    }

    private static List<String> names(FunctionInfo f) {
        List<String> out = new ArrayList<>(f.aliases());
        out.add(0, f.name());
        return out;
    }

    /** Every function, by category and name. */
    public static List<FunctionInfo> all() {
        return ALL.stream().sorted(Comparator.comparing(FunctionInfo::category).thenComparing(FunctionInfo::name)).toList();
    }

    /** The function a call's name (or synonym, in any case) names. */
    public static Optional<FunctionInfo> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name.toLowerCase(Locale.ROOT)));
    }

    /** Every name a function can be called by, synonyms included, sorted. */
    public static Set<String> names() {
        return new TreeSet<>(BY_NAME.keySet());
    }

    /** The names (synonyms included) of the aggregate functions. */
    public static Set<String> aggregateNames() {
        Set<String> out = new TreeSet<>();
        BY_NAME.forEach((name, f) -> {
            if (f.aggregate() != null) {
                out.add(name);
            }
        });
        return Set.copyOf(out);
    }

    private static Builder fn(String name, FunctionCategory category, int minArgs, int maxArgs) {
        return new Builder(name, category, minArgs, maxArgs);
    }

    /** Reads as the entry it makes: {@code fn(...).alias(...).sig(...).does(...).ex(...).build()}. */
    private static final class Builder {
        private final String name;
        private final FunctionCategory category;
        private final int minArgs;
        private final int maxArgs;
        private final List<String> aliases = new ArrayList<>();
        private final List<FunctionInfo.Signature> signatures = new ArrayList<>();
        private final List<FunctionInfo.Example> examples = new ArrayList<>();
        private String description;
        private AggregateCall.Kind aggregate;

        Builder(String name, FunctionCategory category, int minArgs, int maxArgs) {
            this.name = name;
            this.category = category;
            this.minArgs = minArgs;
            this.maxArgs = maxArgs;
        }

        Builder alias(String alias) {
            aliases.add(alias);
            return this;
        }

        Builder agg(AggregateCall.Kind kind) {
            aggregate = kind;
            return this;
        }

        Builder sig(String call, String returns) {
            signatures.add(new FunctionInfo.Signature(call, returns));
            return this;
        }

        Builder does(String text) {
            description = text;
            return this;
        }

        Builder ex(String sql, String result) {
            examples.add(new FunctionInfo.Example(sql, result));
            return this;
        }

        FunctionInfo build() {
            if (description == null || signatures.isEmpty() || examples.isEmpty()) {
                throw new IllegalStateException("function " + name + " needs a signature, a description and an example");
            }
            return new FunctionInfo(name, aliases, category, minArgs, maxArgs, signatures, description, examples, aggregate);
        }
    }
}
