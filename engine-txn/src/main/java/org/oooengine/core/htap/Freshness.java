package org.oooengine.core.htap;

/**
 * How up to date the copy queries read is for one table (after Bouzeghoub, as seed 000 measures
 * it): the share of its rows whose last committed change it shows, and how long ago the oldest
 * change it does not show became visible in the transactional table.
 *
 * @param staleRows rows with a committed change the copy does not show yet: changes shipped and not
 *                  yet taken by the applier
 */
public record Freshness(String table, long rows, long staleRows, double rate, double lagSeconds) {
    static Freshness of(String table, long rows, long staleRows, double lagSeconds) {
        double rate = rows <= 0 ? (staleRows == 0 ? 1 : 0) : Math.max(0, 1 - (double) staleRows / rows);
        return new Freshness(table, rows, staleRows, rate, lagSeconds);
    }
}
