package org.oooengine.hive.server;

import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The real Hive JDBC driver, loaded on its own. The standalone jar carries its own copy of the
 * TCLIService classes, built against a relocated Thrift; on the test class path the server's
 * copy (hive-service-rpc) comes first, so the driver must not share our class loader.
 */
final class IsolatedHiveDriver {
    private static final String DRIVER_CLASS = "org.apache.hive.jdbc.HiveDriver";

    private final ClassLoader loader;
    private final Driver driver;

    IsolatedHiveDriver() throws Exception {
        URL classFile = IsolatedHiveDriver.class.getClassLoader().getResource(DRIVER_CLASS.replace('.', '/') + ".class");
        if (classFile == null || !"jar".equals(classFile.getProtocol())) {
            throw new IllegalStateException("hive-jdbc standalone jar not on the test class path: " + classFile);
        }
        String jar = classFile.getPath().substring(0, classFile.getPath().indexOf("!/"));
        // Parent: the platform loader, which has java.sql and the JDK's SASL, but none of our jars.
        loader = new URLClassLoader(new URL[] {new URL(jar)}, ClassLoader.getPlatformClassLoader());
        driver = (Driver) Class.forName(DRIVER_CLASS, true, loader).getDeclaredConstructor().newInstance();
    }

    Connection connect(String url, String user, String password) throws SQLException {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader); // Hadoop/Hive code inside the driver loads through it
        try {
            Connection connection = driver.connect(url, props);
            if (connection == null) {
                throw new SQLException("the driver does not accept " + url);
            }
            return connection;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
