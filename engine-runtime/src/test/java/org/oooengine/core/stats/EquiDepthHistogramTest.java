package org.oooengine.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.oooengine.core.types.DataType;

class EquiDepthHistogramTest {
    private static List<ColumnStatistics.Bucket> of(int buckets, long... sorted) {
        EquiDepthHistogram h = new EquiDepthHistogram(sorted.length, buckets, DataType.BIGINT);
        for (long v : sorted) {
            h.add(v);
        }
        return h.buckets();
    }

    private static ColumnStatistics.Bucket b(long upper, long rows) {
        return new ColumnStatistics.Bucket(Long.toString(upper), rows);
    }

    @Test
    void distinctValuesFillBucketsEvenly() {
        assertEquals(List.of(b(2, 3), b(5, 3), b(8, 3)), of(3, 0, 1, 2, 3, 4, 5, 6, 7, 8));
        assertEquals(List.of(b(1, 2), b(3, 2)), of(2, 0, 1, 2, 3));
    }

    /** A bucket ends after the last copy of its bound, and the ends a long run of one value passed are not made up with slivers. */
    @Test
    void copiesOfAValueStayInOneBucket() {
        assertEquals(List.of(b(1, 3), b(3, 3)), of(2, 1, 1, 1, 2, 3, 3));
        assertEquals(List.of(b(5, 7), b(8, 2), b(9, 1)), of(5, 1, 5, 5, 5, 5, 5, 5, 8, 8, 9));
    }

    @Test
    void fewerValuesThanBucketsMakeOneBucketEach() {
        assertEquals(List.of(b(4, 1), b(7, 2)), of(100, 4, 7, 7));
    }
}
