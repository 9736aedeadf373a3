package org.oooengine.core.store;

import java.util.List;
import org.oooengine.core.types.Schema;

/**
 * What a load needs to know about a table: its columns, primary key (clustering order), secondary
 * indexes, and whether input rows already arrive in primary-key order (else they are sorted).
 */
public record TableDefinition(String name, Schema schema, List<String> primaryKey, List<IndexDefinition> indexes,
                              boolean inputSorted) {
    /** A secondary index on {@code columns}, holding the primary key of each row. */
    public record IndexDefinition(String name, List<String> columns, IndexScope scope) {
        public IndexDefinition(String name, List<String> columns) {
            this(name, columns, IndexScope.LOCAL);
        }
    }

    public TableDefinition {
        for (String c : primaryKey) {
            schema.indexOf(c);
        }
        for (IndexDefinition ix : indexes) {
            ix.columns().forEach(schema::indexOf);
        }
    }
}
