package org.oooengine.hive.sql;

import org.oooengine.core.sql.SqlException;
import java.util.Map;
import org.oooengine.hive.catalog.Catalog;

/**
 * One client session: its current database and settings ({@code SET k=v}). A session runs one
 * statement at a time; statements of different sessions run concurrently.
 */
public interface SqlSession extends AutoCloseable {
    String user();

    String currentDatabase();

    /** Session settings as {@code SET} left them, e.g. {@code ooo.execution.mode}. */
    Map<String, String> settings();

    /**
     * Runs one statement. Rows of a result set may be computed lazily while the caller reads
     * them; {@code cancel} stops the work at the next check and the statement then fails with
     * {@link SqlException#CANCELLED}.
     */
    StatementResult execute(String sql, Cancellation cancel);

    /** The catalog this session reads (for the metadata calls of JDBC clients). */
    Catalog catalog();

    @Override
    void close();
}
