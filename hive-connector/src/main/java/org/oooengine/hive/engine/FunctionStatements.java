package org.oooengine.hive.engine;

import static org.apache.hadoop.hive.ql.parse.HiveParser.KW_EXTENDED;
import static org.apache.hadoop.hive.ql.parse.HiveParser.StringLiteral;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.functions.FunctionInfo;
import org.oooengine.core.sql.functions.Functions;
import org.oooengine.hive.sql.StatementResult;
import org.oooengine.optimizer.catalog.ResultColumn;

/**
 * {@code SHOW FUNCTIONS [LIKE 'pattern']} and {@code DESCRIBE FUNCTION [EXTENDED] name}, answered
 * from the function registry in Hive's layout: one column, {@code tab_name}, one line a row.
 */
final class FunctionStatements {
    private FunctionStatements() {
    }

    /** Every name a function is called by (synonyms too), sorted; with LIKE, those Hive's pattern matches. */
    static StatementResult show(ASTNode tree) {
        ASTNode pattern = null;
        for (int i = 0; i < tree.getChildCount(); i++) {
            if (tree.getChild(i).getType() == StringLiteral) {
                pattern = (ASTNode) tree.getChild(i);
            }
        }
        Pattern matches = pattern == null ? null : likePattern(unquote(pattern.getText()));
        List<String> names = Functions.names().stream().filter(n -> matches == null || matches.matcher(n).matches()).toList();
        return lines(names);
    }

    /** Hive's SHOW ... LIKE pattern: {@code *} any characters, {@code |} between alternatives, case ignored. */
    static Pattern likePattern(String pattern) {
        List<String> alternatives = new ArrayList<>();
        for (String alternative : pattern.split("\\|", -1)) {
            alternatives.add(Arrays.stream(alternative.trim().split("\\*", -1)).map(Pattern::quote)
                    .collect(Collectors.joining(".*")));
        }
        return Pattern.compile(String.join("|", alternatives), Pattern.CASE_INSENSITIVE);
    }

    /** A function's calls and description; EXTENDED adds its synonyms, result types and examples. */
    static StatementResult describe(ASTNode tree) {
        String name = tree.getChild(0).getText().replace("`", "");
        boolean extended = false;
        for (int i = 1; i < tree.getChildCount(); i++) {
            extended |= tree.getChild(i).getType() == KW_EXTENDED;
        }
        Optional<FunctionInfo> found = Functions.find(name);
        if (found.isEmpty()) {
            return lines(List.of("Function '" + name + "' does not exist."));
        }
        FunctionInfo f = found.get();
        List<String> out = new ArrayList<>();
        out.add(String.join(", ", f.signatures().stream().map(FunctionInfo.Signature::call).toList()) + " - "
                + plain(f.description()));
        if (extended) {
            if (!f.aliases().isEmpty()) {
                out.add("Synonyms: " + String.join(", ", f.aliases()));
            }
            for (FunctionInfo.Signature s : f.signatures()) {
                out.add("Returns: " + s.call() + " -> " + s.returns());
            }
            out.add("Example:");
            for (FunctionInfo.Example e : f.examples()) {
                out.add("  > SELECT " + e.sql() + ";");
                out.add("  " + e.result());
            }
            out.add("Function class: " + f.category().title());
            out.add("Function type: BUILTIN");
        }
        return lines(out);
    }

    /** The registry's text without its markdown code quotes. */
    private static String plain(String text) {
        return text.replace("`", "");
    }

    private static String unquote(String literal) {
        return literal.substring(1, literal.length() - 1);
    }

    private static StatementResult lines(List<String> lines) {
        return StatementResult.rows(List.of(new ResultColumn("tab_name", SqlType.STRING)),
                lines.stream().map(l -> new Object[] {l}).iterator());
    }
}
