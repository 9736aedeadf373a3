package org.oooengine.optimizer.rel;

import org.oooengine.core.sql.SqlType;

/** A column of an operator's output: its name, the alias or table it can be qualified by (may be null), its type. */
public record Field(String qualifier, String name, SqlType type) {
    public Field withQualifier(String q) {
        return new Field(q, name, type);
    }
}
