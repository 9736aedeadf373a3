package org.oooengine.core.stats;

import com.dynatrace.hash4j.distinctcount.HyperLogLog;
import java.util.Base64;
import java.util.List;

/**
 * Statistics of one column of one partition, or of a whole table once merged. Values (min, max,
 * histogram bounds) are kept as the column type formats them ({@code DataType.format}), so the
 * record is the same for every type and readable in JSON.
 *
 * @param column    column name
 * @param nulls     NULL values
 * @param min       smallest non-NULL value; null when the column holds none
 * @param max       largest non-NULL value; null when the column holds none
 * @param sketch    HyperLogLog state of the non-NULL values, Base64 (mergeable across partitions)
 * @param histogram equi-depth histogram of an indexed column, ascending; empty for other columns
 * @param sample    of a string column, up to {@link ValueSample#SIZE} of its non-NULL values taken at random
 *                  (what a LIKE is estimated over); empty for other columns
 */
public record ColumnStatistics(String column, long nulls, String min, String max, String sketch, List<Bucket> histogram,
                               List<String> sample) {
    /** One bucket: the rows whose value is above the previous bucket's bound and at most {@code upper}. */
    public record Bucket(String upper, long rows) {
    }

    public ColumnStatistics {
        histogram = List.copyOf(histogram);
        sample = sample == null ? List.of() : List.copyOf(sample); // statistics collected before samples have none
    }

    /** Estimated distinct non-NULL values. */
    public double distinctValues() {
        return hyperLogLog().getDistinctCountEstimate();
    }

    HyperLogLog hyperLogLog() {
        return HyperLogLog.wrap(Base64.getDecoder().decode(sketch));
    }

    /** The sketch of the union of the columns' values: what one sketch over all their rows would be. */
    public static String unionSketch(List<ColumnStatistics> parts) {
        HyperLogLog union = HyperLogLog.create(StatisticsCollector.HLL_PRECISION);
        for (ColumnStatistics p : parts) {
            union.add(p.hyperLogLog());
        }
        return Base64.getEncoder().encodeToString(union.getState());
    }
}
