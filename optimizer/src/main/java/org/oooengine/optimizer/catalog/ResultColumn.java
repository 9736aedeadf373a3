package org.oooengine.optimizer.catalog;

import org.oooengine.core.sql.SqlType;

/** A column of a statement's result or of a table. */
public record ResultColumn(String name, SqlType type, String comment) {
    public ResultColumn(String name, SqlType type) {
        this(name, type, "");
    }
}
