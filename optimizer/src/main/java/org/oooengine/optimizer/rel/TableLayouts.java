package org.oooengine.optimizer.rel;

import java.util.OptionalLong;
import org.oooengine.optimizer.catalog.TableInfo;

/**
 * What physical planning knows of where tables live: how many rows the nodes hold of a table, and
 * whether two tables are partitioned alike (rows with equal leading key values on the same node).
 * Answers come from the statement's snapshot of the nodes' manifests and statistics: planning asks the nodes nothing.
 */
public interface TableLayouts {
    /** Nothing is on the nodes: every table is read where its rows arrive. */
    TableLayouts NONE = new TableLayouts() {
        @Override
        public OptionalLong rows(TableInfo table) {
            return OptionalLong.empty();
        }

        @Override
        public OptionalLong bytes(TableInfo table) {
            return OptionalLong.empty();
        }

        @Override
        public boolean partitionedAlike(TableInfo a, TableInfo b) {
            return false;
        }

        @Override
        public int nodes(TableInfo table) {
            return 1;
        }
    };

    /** The rows the nodes hold of {@code table}; empty when the nodes do not hold it (a table in files) or it is unknown. */
    OptionalLong rows(TableInfo table);

    /** The bytes of {@code table}'s rows on the nodes, all partitions together; empty as for {@link #rows}. */
    OptionalLong bytes(TableInfo table);

    /** Over how many nodes {@code table}'s rows are partitioned (1 when not on the nodes). */
    int nodes(TableInfo table);

    /** Whether both tables are on the nodes, partitioned by their leading key column over the same nodes. */
    boolean partitionedAlike(TableInfo a, TableInfo b);

    /**
     * The least and greatest stored value (integers, dates as epoch days, unscaled decimals) of
     * column {@code column} of {@code table} over all its partitions, or null when unknown.
     */
    default long[] range(TableInfo table, int column) {
        return null;
    }

    /**
     * Whether {@code table} is held in files that hold column {@code column} in order (each row
     * group's values at or above the last one's, the files' ranges apart), so that each of its
     * splits reads a range of that column's values.
     */
    default boolean ordered(TableInfo table, int column) {
        return false;
    }

    /**
     * The column by whose values the nodes can read {@code table}, held in files, in slices, all
     * rows of a value on one node (so that a GROUP BY by it runs whole on each node), or -1: the
     * first column of the key its writers keep (declared RELY), an integer or a date, when its
     * files hold it in order, so that few splits are read by two nodes.
     */
    default int sliceColumn(TableInfo table) {
        return -1;
    }

    /** Distinct values of column {@code column} of {@code table} over all its partitions, from its statistics; NaN when unknown. */
    default double distinct(TableInfo table, int column) {
        return Double.NaN;
    }

    /** Values of string column {@code column} of {@code table} taken at random from all its partitions; empty when unknown. */
    default java.util.List<String> sample(TableInfo table, int column) {
        return java.util.List.of();
    }
}
