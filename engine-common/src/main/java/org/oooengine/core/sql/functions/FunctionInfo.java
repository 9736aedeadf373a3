package org.oooengine.core.sql.functions;

import java.util.List;
import org.oooengine.core.sql.expr.AggregateCall;

/**
 * One built-in function as the registry knows it: the name and its synonyms, what it takes and
 * returns, a description, and examples with the value each gives (written as a SQL literal).
 *
 * @param aggregate the aggregate it computes; null for a scalar function
 */
public record FunctionInfo(String name, List<String> aliases, FunctionCategory category, int minArgs, int maxArgs,
                           List<Signature> signatures, String description, List<Example> examples,
                           AggregateCall.Kind aggregate) {
    /** No upper bound on the number of arguments. */
    public static final int ANY = Integer.MAX_VALUE;

    /** One way to call it, e.g. {@code substr(STRING s, INT start [, INT length])}, and what that returns. */
    public record Signature(String call, String returns) {
    }

    /** A call and its value as a SQL literal ({@code 'abc'}, {@code DATE '2024-05-01'}, {@code 2.5}, {@code NULL}). */
    public record Example(String sql, String result) {
    }

    public FunctionInfo {
        aliases = List.copyOf(aliases);
        signatures = List.copyOf(signatures);
        examples = List.copyOf(examples);
    }

    public boolean accepts(int arguments) {
        return arguments >= minArgs && arguments <= maxArgs;
    }

    /** How many arguments it takes, in words: "1", "1 or 2", "2 to 3", "2 or more". */
    public String arity() {
        if (maxArgs == ANY) {
            return minArgs + " or more";
        }
        if (minArgs == maxArgs) {
            return Integer.toString(minArgs);
        }
        return minArgs + (maxArgs == minArgs + 1 ? " or " : " to ") + maxArgs;
    }
}
