package org.oooengine.cluster.bench.tpch;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Queries through a JDBC connection (the Hive JDBC driver to the coordinator's endpoint): what a
 * user's client waits for, the rows fetched over the network as they are read.
 */
public final class JdbcQueries implements TpchBench.Queries {
    private final Connection connection;

    public JdbcQueries(Connection connection) {
        this.connection = connection;
    }

    /** Runs a statement without a result set (SET). */
    public void execute(String sql) {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public Iterator<Object[]> rows(String sql) {
        Statement s = null;
        try {
            s = connection.createStatement();
            return new RowIterator(s, s.executeQuery(sql));
        } catch (SQLException e) {
            closeQuietly(s, e);
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Closes a statement whose query failed, the failure kept as what is reported. */
    private static void closeQuietly(Statement s, SQLException failure) {
        if (s != null) {
            try {
                s.close();
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** A result set's rows as arrays of its objects; the statement is closed once the last is read. */
    private static final class RowIterator implements Iterator<Object[]> {
        private final Statement statement;
        private final ResultSet rs;
        private final int width;
        private Boolean ahead;

        RowIterator(Statement statement, ResultSet rs) throws SQLException {
            this.statement = statement;
            this.rs = rs;
            this.width = rs.getMetaData().getColumnCount();
        }

        @Override
        public boolean hasNext() {
            if (ahead == null) {
                try {
                    ahead = rs.next();
                    if (!ahead) {
                        statement.close();
                    }
                } catch (SQLException e) {
                    closeQuietly(statement, e);
                    throw new IllegalStateException(e.getMessage(), e);
                }
            }
            return ahead;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ahead = null;
            Object[] row = new Object[width];
            try {
                for (int c = 0; c < width; c++) {
                    row[c] = rs.getObject(c + 1);
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            return row;
        }
    }
}
