package org.oooengine.core.sql.functions;

/** The kinds of built-in function, in the order the SQL reference lists them. */
public enum FunctionCategory {
    STRING("String functions"),
    MATH("Mathematical functions"),
    DATE("Date functions", "A date argument may be a DATE, a TIMESTAMP (its day) or text that Hive reads as one, "
            + "`'yyyy-MM-dd'` with or without a time (`'2024-05-17 13:45:30'`); other text gives NULL. A timestamp "
            + "argument may be a TIMESTAMP, a DATE (at midnight) or such text. Timestamps have no time zone; where "
            + "one is needed (seconds since 1970, now) the engine's is UTC."),
    CONDITIONAL("Conditional functions"),
    COLLECTION("Array and map functions", "Values of type `ARRAY<T>` and `MAP<K,V>`. `a[i]` is the element at index `i`, "
            + "counted from 0 as in Hive, and `m[key]` the value of `key`; NULL when out of range or absent. A result set "
            + "holds an array or a map as HiveServer2 sends it: JSON text such as `[\"a\",\"b\"]` or `{\"k\":1}` "
            + "(`getString`, `getObject`). Arrays and maps do not compare with `=` or `<`, as in Hive; `sort_array`, "
            + "`array_contains` and GROUP BY compare their elements."),
    AGGREGATE("Aggregate functions", "Each takes `DISTINCT` too (`count(DISTINCT x)`). NULL values are skipped; over no "
            + "values `count` is 0, `collect_list` and `collect_set` an empty array, and the others NULL. The examples run "
            + "over a column `x` holding 1, 2, 3, 4 and NULL."),
    GENERATOR("Table-generating functions", "Hive's UDTFs: each input row gives zero or more rows. They go in "
            + "`LATERAL VIEW [OUTER] f(...) alias AS c1, c2`, beside the row's own columns, or alone in the select list "
            + "(`SELECT explode(a) AS x FROM t`); not inside an expression. `OUTER` keeps a row whose array or map is "
            + "NULL or empty, once, its generated columns NULL. Without `AS` the columns are named as in Hive: `col`, or "
            + "`key` and `value`, or `pos` and `val`. The examples show the first row.");

    private final String title;
    private final String note;

    FunctionCategory(String title) {
        this(title, "");
    }

    FunctionCategory(String title, String note) {
        this.title = title;
        this.note = note;
    }

    public String title() {
        return title;
    }

    /** What holds for every function of the kind; empty when nothing does. */
    public String note() {
        return note;
    }
}
