package org.oooengine.mapreduce;

import java.util.List;
import org.apache.hadoop.hive.ql.io.sarg.PredicateLeaf;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgument;
import org.apache.hadoop.hive.ql.io.sarg.SearchArgumentFactory;
import org.apache.orc.TypeDescription;
import org.oooengine.core.fragment.GroupFilter;
import org.oooengine.core.types.DataType;
import org.oooengine.core.types.TypeKind;

/**
 * A scan's equalities of a column with a constant as ORC's search argument, so that ORC skips the
 * row groups (10,000 rows by default) whose statistics or bloom filters rule the constant out, and
 * a stripe none of whose row groups remain. Integer and string columns only: ORC's bloom filters
 * hold dates and decimals in forms of their own.
 */
final class OrcSearchArguments {
    private OrcSearchArguments() {
    }

    /** The search argument of {@code equalities} over a file of schema {@code file} read as {@code types}; null when none applies. */
    static SearchArgument of(TypeDescription file, List<DataType> types, List<GroupFilter.Equality> equalities) {
        SearchArgument.Builder and = null;
        for (GroupFilter.Equality e : equalities) {
            if (e.column() >= types.size()) {
                continue; // a partition column: not in the file
            }
            TypeDescription column = file.getChildren().get(e.column());
            PredicateLeaf.Type leaf = leafType(column.getCategory(), types.get(e.column()), e.value());
            if (leaf == null) {
                continue;
            }
            if (and == null) {
                and = SearchArgumentFactory.newBuilder().startAnd();
            }
            and.equals(file.getFieldNames().get(e.column()), leaf, e.value());
        }
        return and == null ? null : and.end().build();
    }

    private static PredicateLeaf.Type leafType(TypeDescription.Category file, DataType type, Object value) {
        boolean integer = type.kind() == TypeKind.INT || type.kind() == TypeKind.BIGINT;
        return switch (file) {
            case BYTE, SHORT, INT, LONG -> integer && value instanceof Long ? PredicateLeaf.Type.LONG : null;
            case STRING, VARCHAR -> value instanceof String ? PredicateLeaf.Type.STRING : null;
            default -> null; // CHAR pads its values; dates, decimals and the rest are left to the stripes' ranges
        };
    }
}
