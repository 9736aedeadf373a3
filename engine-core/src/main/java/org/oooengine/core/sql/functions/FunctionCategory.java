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
    AGGREGATE("Aggregate functions", "Each takes `DISTINCT` too (`count(DISTINCT x)`). NULL values are skipped; over no "
            + "values `count` is 0 and the others are NULL. The examples run over a column `x` holding 1, 2, 3, 4 and NULL.");

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
