package org.oooengine.hive.server;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * JDBC metadata patterns: SQL LIKE with {@code %} (any run), {@code _} (one character) and
 * {@code \} escaping the next character. Case-insensitive, since catalog names are lower case
 * but clients often pass them as typed. A null pattern matches everything.
 */
final class LikePattern {
    private LikePattern() {
    }

    static Predicate<String> compile(String pattern) {
        if (pattern == null || pattern.equals("%")) {
            return name -> true;
        }
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        Pattern compiled = Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
        return name -> name != null && compiled.matcher(name).matches();
    }
}
