package org.oooengine.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.LocalDate;
import java.util.Random;
import java.util.function.LongToIntFunction;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.oooengine.core.sql.SqlType;
import org.oooengine.core.types.LocalTimestamps;

/** A key held as a long goes to the partition its encoded value goes to, for every type held so. */
class PartitioningTest {
    @Test
    void aLongKeyGoesWhereItsEncodingDoes() {
        Random random = new Random(7);
        for (int partitions : new int[] {1, 3, 4, 16}) {
            for (SqlType type : new SqlType[] {SqlType.INT, SqlType.BIGINT, SqlType.DATE, SqlType.TIMESTAMP}) {
                ToIntFunction<Object> byValue = Partitioning.partitioner(type, partitions);
                LongToIntFunction byLong = Partitioning.longPartitioner(type, partitions);
                for (int i = 0; i < 2000; i++) {
                    long v = switch (type.kind()) {
                        case INT -> i < 10 ? Integer.MIN_VALUE + i : random.nextInt();
                        case DATE -> random.nextInt(80_000) - 20_000;
                        default -> i < 10 ? Long.MIN_VALUE + i : random.nextLong() >> random.nextInt(40);
                    };
                    Object value = switch (type.kind()) {
                        case INT -> (int) v;
                        case DATE -> LocalDate.ofEpochDay(v);
                        case TIMESTAMP -> LocalTimestamps.ofMicros(v >> 8);
                        default -> v;
                    };
                    long held = type.kind() == SqlType.Kind.TIMESTAMP ? v >> 8 : v;
                    assertEquals(byValue.applyAsInt(value), byLong.applyAsInt(held), type + " " + value);
                }
            }
        }
        assertNull(Partitioning.longPartitioner(SqlType.decimal(12, 2), 4), "decimals keep the general way");
    }
}
