package org.oooengine.hive.server;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

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

    /**
     * Waits until the driver holds the operation handle of what {@code statement} runs in another
     * thread. The engine starts a statement before the driver has read its handle, and a
     * {@code cancel()} before then sends nothing; the driver's {@code getQueryId()} answers null
     * until it has the handle. Fails after {@code seconds}.
     */
    static void awaitRunning(Statement statement, int seconds) throws Exception {
        Method queryId = statement.getClass().getMethod("getQueryId"); // HiveStatement, in the driver's loader
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (queryId.invoke(statement) == null) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the driver had no handle for the statement after " + seconds + " s");
            }
            Thread.sleep(10);
        }
    }
}
