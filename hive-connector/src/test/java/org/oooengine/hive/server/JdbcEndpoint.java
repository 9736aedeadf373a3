package org.oooengine.hive.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.oooengine.hive.engine.SqlCluster;

/**
 * The HiveServer2 endpoint over a test class's {@link SqlCluster}, without authentication, and the
 * real Hive JDBC driver to reach it: started after the cluster, closed before it (register it
 * with a higher {@code @Order}). Also what the JDBC tests share to read answers.
 */
final class JdbcEndpoint implements BeforeAllCallback, AfterAllCallback {
    private final SqlCluster cluster;
    private HiveServer2Endpoint endpoint;
    private IsolatedHiveDriver driver;

    JdbcEndpoint(SqlCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        endpoint = HiveServer2Endpoint.start(cluster.engine(), EndpointConfig.unauthenticated("127.0.0.1", 0));
        driver = new IsolatedHiveDriver();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** A connection of user {@code analyst} to database {@code default}. */
    Connection connect() throws SQLException {
        return driver.connect("jdbc:hive2://127.0.0.1:" + endpoint.port() + "/default;auth=noSasl", "analyst", null);
    }

    /** The first column of each row {@code sql} answers, as text. */
    static List<String> lines(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
