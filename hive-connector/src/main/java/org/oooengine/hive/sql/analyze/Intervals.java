package org.oooengine.hive.sql.analyze;

import static org.apache.hadoop.hive.ql.parse.HiveParser.*;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Period;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hive.ql.parse.ASTNode;
import org.oooengine.core.sql.SqlException;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.sql.expr.Expr;

/**
 * Hive's interval literals as values: years, months and days as a {@link Period} (a date plus one
 * stays a date), hours, minutes, seconds and {@code DAY TO SECOND} as a {@link Duration}.
 */
final class Intervals {
    /** Hive's {@code YEAR TO MONTH} text: {@code [+|-]y-m}. */
    private static final Pattern YEAR_MONTH = Pattern.compile("([+-])?(\\d+)-(\\d+)");
    /** Hive's {@code DAY TO SECOND} text: {@code [+|-]d h:m:s[.fraction]}. */
    private static final Pattern DAY_TIME = Pattern.compile("([+-])?(\\d+) (\\d+):(\\d+):(\\d+(\\.\\d*)?)");

    private Intervals() {
    }

    /** {@code INTERVAL '5' DAY}, {@code INTERVAL 30 DAY}, {@code INTERVAL '1-2' YEAR TO MONTH}: Hive's internal_interval(qualifier, amount). */
    static Expr literal(List<ASTNode> args, ASTNode at) {
        int qualifier = Integer.parseInt(args.get(0).getText());
        String text = amount(args.get(1), at);
        try {
            Object value = switch (qualifier) {
                case TOK_INTERVAL_YEAR_LITERAL -> Period.ofYears(Integer.parseInt(text));
                case TOK_INTERVAL_MONTH_LITERAL -> Period.ofMonths(Integer.parseInt(text));
                case TOK_INTERVAL_DAY_LITERAL -> Period.ofDays(Integer.parseInt(text));
                case TOK_INTERVAL_HOUR_LITERAL -> Duration.ofHours(Long.parseLong(text));
                case TOK_INTERVAL_MINUTE_LITERAL -> Duration.ofMinutes(Long.parseLong(text));
                case TOK_INTERVAL_SECOND_LITERAL -> seconds(new BigDecimal(text));
                case TOK_INTERVAL_YEAR_MONTH_LITERAL -> yearMonth(text);
                case TOK_INTERVAL_DAY_TIME_LITERAL -> dayTime(text);
                default -> throw Ast.notSupported("this kind of interval", at);
            };
            if (value == null) {
                throw Ast.error(SqlException.SYNTAX, "not an interval: '" + text + "'", at);
            }
            return new Expr.Literal(value, SqlType.INTERVAL);
        } catch (NumberFormatException | ArithmeticException e) {
            throw Ast.error(SqlException.SYNTAX, "not an interval: '" + text + "'", at);
        }
    }

    /** {@code - INTERVAL '2' DAY}: a literal interval negated. */
    static Expr negated(Expr interval) {
        Object v = ((Expr.Literal) interval).value();
        Object negated = v instanceof Period p ? p.negated() : ((Duration) v).negated();
        return new Expr.Literal(negated, SqlType.INTERVAL);
    }

    /** An interval's amount as written: quoted ({@code INTERVAL '5' DAY}) or not ({@code INTERVAL 30 DAY}). */
    private static String amount(ASTNode amount, ASTNode at) {
        return switch (amount.getType()) {
            case StringLiteral -> Ast.unquote(amount.getText()).trim();
            case Number, IntegralLiteral -> amount.getText().trim();
            default -> throw Ast.notSupported("INTERVAL of an expression (write the amount as a number)", at);
        };
    }

    private static Duration seconds(BigDecimal s) {
        BigDecimal nanos = s.movePointRight(9);
        return Duration.ofNanos(nanos.longValueExact());
    }

    private static Period yearMonth(String text) {
        Matcher m = YEAR_MONTH.matcher(text);
        if (!m.matches()) {
            return null;
        }
        Period p = Period.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), 0);
        return "-".equals(m.group(1)) ? p.negated() : p;
    }

    private static Duration dayTime(String text) {
        Matcher m = DAY_TIME.matcher(text);
        if (!m.matches()) {
            return null;
        }
        Duration d = Duration.ofDays(Long.parseLong(m.group(2))).plusHours(Long.parseLong(m.group(3)))
                .plusMinutes(Long.parseLong(m.group(4))).plus(seconds(new BigDecimal(m.group(5))));
        return "-".equals(m.group(1)) ? d.negated() : d;
    }
}
