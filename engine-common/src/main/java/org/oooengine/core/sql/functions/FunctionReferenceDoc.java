package org.oooengine.core.sql.functions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Writes docs/sql-reference.md from the function registry ({@link Functions}). Run from the
 * repository's root after changing a function: see {@link #REGENERATE}.
 */
public final class FunctionReferenceDoc {
    /** How to write the page again, as the page and the test that keeps it equal say. */
    public static final String REGENERATE = "mvn -B -q -o package -DskipTests -pl engine-common && "
            + "java -cp engine-common/target/classes org.oooengine.core.sql.functions.FunctionReferenceDoc docs/sql-reference.md";

    private FunctionReferenceDoc() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: FunctionReferenceDoc <docs/sql-reference.md>");
            System.exit(2);
        }
        Files.writeString(Path.of(args[0]), markdown());
    }

    /** The page. */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# SQL reference\n\n")
                .append("<!-- Written from the function registry (engine-common org.oooengine.core.sql.functions); do not edit.\n")
                .append("     Regenerate: ").append(REGENERATE).append(" -->\n\n")
                .append("The SQL the engine runs is Hive's: statements are parsed by Hive's own parser, and types, NULLs and ")
                .append("functions behave as in Hive. [user-guide.md](user-guide.md#what-sql-runs) lists the statements and ")
                .append("clauses that run, [sql.md](sql.md) how a statement is planned. Anything else is refused with SQLSTATE ")
                .append("`0A000` naming the construct, never ignored: among others `TIMESTAMP WITH LOCAL TIME ZONE`, ")
                .append("`BINARY`, `STRUCT` and `UNIONTYPE`, and table functions other than `explode` and `posexplode`. "
                        + "Window functions (`OVER`: `row_number`, ")
                .append("`rank`, `dense_rank`, `percent_rank`, `cume_dist`, `ntile`, `lag`, `lead`, `first_value`, ")
                .append("`last_value` and the aggregates below), grouping sets (`grouping()`, `GROUPING__ID`), `INTERSECT` ")
                .append("and `EXCEPT` and views are described in [user-guide.md](user-guide.md#what-sql-runs).\n\n")
                .append("## Functions\n\n")
                .append("Every built-in function, as `SHOW FUNCTIONS` lists them and `DESCRIBE FUNCTION [EXTENDED] name` ")
                .append("describes one. A call of a name not listed here is refused naming it. Unless a function says ")
                .append("otherwise, it returns NULL when an argument is NULL. A number argument may be of any numeric type ")
                .append("(text is read as a DOUBLE); `x`, `a`, `b` are numbers, `s` is text. Examples show the value as a ")
                .append("SQL literal: `'text'`, `DATE '2024-05-01'`, `2.5`, `NULL`.\n");
        for (FunctionCategory category : FunctionCategory.values()) {
            if (Functions.all().stream().noneMatch(f -> f.category() == category)) {
                continue;
            }
            md.append("\n### ").append(category.title()).append("\n\n");
            if (!category.note().isEmpty()) {
                md.append(category.note()).append("\n\n");
            }
            md.append("| function | returns | what it does | example |\n|---|---|---|---|\n");
            for (FunctionInfo f : Functions.all()) {
                if (f.category() == category) {
                    md.append("| ").append(signatures(f)).append(" | ").append(returns(f)).append(" | ")
                            .append(cell(f.description() + aliases(f))).append(" | ").append(examples(f)).append(" |\n");
                }
            }
        }
        md.append("\nOperators and other expressions: arithmetic (`+ - * / % DIV`), comparisons, `AND OR NOT`, `CASE` ")
                .append("(both forms), `BETWEEN`, `IN (list)`, `LIKE`, `IS [NOT] NULL`, `CAST`, `EXTRACT(YEAR|MONTH|DAY FROM d)`, ")
                .append("and date arithmetic with intervals: `d + INTERVAL '5' DAY`, `d - INTERVAL 30 DAY` (YEAR, MONTH or DAY; ")
                .append("the amount a number, quoted or not).\n");
        return md.toString();
    }

    private static String signatures(FunctionInfo f) {
        return f.signatures().stream().map(s -> "`" + cell(s.call()) + "`").collect(Collectors.joining("<br>"));
    }

    private static String returns(FunctionInfo f) {
        return f.signatures().stream().map(s -> cell(s.returns())).distinct().collect(Collectors.joining("<br>"));
    }

    private static String aliases(FunctionInfo f) {
        if (f.aliases().isEmpty()) {
            return "";
        }
        return " Also called " + f.aliases().stream().map(a -> "`" + a + "`").collect(Collectors.joining(", ")) + ".";
    }

    private static String examples(FunctionInfo f) {
        return f.examples().stream().map(e -> "`" + cell(e.sql()) + "` → `" + cell(e.result()) + "`")
                .collect(Collectors.joining("<br>"));
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
