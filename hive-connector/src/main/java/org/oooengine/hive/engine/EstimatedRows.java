package org.oooengine.hive.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One operator of an EXPLAIN ANALYZE: the rows EXPLAIN estimated it to produce and the rows it
 * produced, read back from the printed plan. How far apart they are is the measure of the
 * optimizer's cardinality estimates ({@code ooo bench estimates}, {@code RowEstimatesAccuracyTest}).
 *
 * @param operator the operator's line, without its figures
 */
public record EstimatedRows(String operator, long estimated, long actual) {
    private static final Pattern ESTIMATED = Pattern.compile("\\(est\\. ([\\d,]+) rows?\\)");
    private static final Pattern ACTUAL = Pattern.compile("\\[actual rows ([\\d,]+),");

    /** The operators of EXPLAIN ANALYZE's {@code lines} that show both figures. */
    public static List<EstimatedRows> of(List<String> lines) {
        List<EstimatedRows> out = new ArrayList<>();
        for (String line : lines) {
            Matcher e = ESTIMATED.matcher(line);
            Matcher a = ACTUAL.matcher(line);
            if (e.find() && a.find()) {
                out.add(new EstimatedRows(line.strip().replaceAll("\\s+\\(est\\..*", ""), number(e.group(1)),
                        number(a.group(1))));
            }
        }
        return out;
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /** How many times the larger figure is the smaller, each counted one more (so that 0 against 1 is 2x). */
    public double ratio() {
        return (Math.max(estimated, actual) + 1.0) / (Math.min(estimated, actual) + 1.0);
    }

    /** Whether the estimate lies within {@code factor} times the actual rows, either way. */
    public boolean within(double factor) {
        return ratio() <= factor;
    }

    /** The share of {@code operators} estimated within {@code factor}; NaN for none. */
    public static double shareWithin(List<EstimatedRows> operators, double factor) {
        return operators.isEmpty() ? Double.NaN
                : operators.stream().filter(o -> o.within(factor)).count() / (double) operators.size();
    }
}
