package org.oooengine.core.sql.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LikeMatcherTest {
    private static final List<String> VALUES = List.of("", "a", "aa", "aba", "green", "forest green", "dark green tea",
            "PROMO BRUSHED", "LARGE POLISHED BRASS", "special requests", "specialrequests", "requests special",
            "a%b", "x_y", "abcabc");

    @Test
    void matchesAsTheRegularExpressionDoes() {
        for (String pattern : List.of("%", "%%", "a", "a%", "%a", "%a%", "a%a", "%green%", "forest%", "PROMO%", "%BRASS",
                "%special%requests%", "a%b%c", "%b%a%", "_", "a_a", "%_%", "x_y", "abc%abc", "abc%bc")) {
            Pattern regex = Pattern.compile(pattern.replace("%", ".*").replace("_", "."), Pattern.DOTALL);
            for (String v : VALUES) {
                assertEquals(regex.matcher(v).matches(), LikeMatcher.matches(pattern, v), pattern + " on '" + v + "'");
            }
        }
    }
}
