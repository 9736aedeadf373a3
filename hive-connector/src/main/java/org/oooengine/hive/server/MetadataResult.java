package org.oooengine.hive.server;

import java.util.List;

/** The columns and rows of a metadata call (GetTables and friends). */
record MetadataResult(List<WireColumn> columns, List<Object[]> rows) {
}
