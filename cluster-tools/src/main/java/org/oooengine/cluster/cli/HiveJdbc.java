package org.oooengine.cluster.cli;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.oooengine.cluster.launch.LocalCluster;

/**
 * The real Hive JDBC driver (and sqlline) in a class loader of their own. The standalone driver
 * jar carries its own TCLIService classes on a relocated Thrift; our class path has the server's
 * (hive-service-rpc), so the two must not meet. The jars sit in {@code target/sql-shell}, beside
 * {@code target/lib}, where the build copies them; the loader's parent is the platform loader,
 * which has {@code java.sql} and the JDK's SASL but none of our jars.
 */
public final class HiveJdbc {
    static final String DRIVER_CLASS = "org.apache.hive.jdbc.HiveDriver";
    static final String SHELL_DIR = "sql-shell";

    private static ClassLoader loader;

    private HiveJdbc() {
    }

    /** The isolated loader, made once per JVM (the driver registers itself with DriverManager). */
    static synchronized ClassLoader loader() throws IOException {
        if (loader == null) {
            Path dir = shellDir();
            List<Path> jars;
            try (Stream<Path> files = Files.list(dir)) {
                jars = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
            } catch (IOException e) {
                jars = List.of();
            }
            if (jars.isEmpty()) {
                throw new IOException("the SQL shell's jars (Hive JDBC driver, sqlline) are missing in " + dir
                        + "; build them with: mvn -o -pl cluster-tools package -DskipTests");
            }
            URL[] urls = new URL[jars.size()];
            for (int i = 0; i < urls.length; i++) {
                urls[i] = toUrl(jars.get(i));
            }
            loader = new URLClassLoader("hive-jdbc", urls, ClassLoader.getPlatformClassLoader());
        }
        return loader;
    }

    /** A connection through the isolated driver; {@code user}/{@code password} may be null. */
    public static Connection connect(String url, String user, String password) throws Exception {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        return withLoader(() -> {
            Driver driver = (Driver) Class.forName(DRIVER_CLASS, true, loader()).getDeclaredConstructor().newInstance();
            Connection c = driver.connect(url, props);
            if (c == null) {
                throw new SQLException("the Hive JDBC driver does not accept " + url);
            }
            return c;
        });
    }

    /** Runs {@code work} with the isolated loader as context loader: code in the driver loads through it. */
    public static <T> T withLoader(Callable<T> work) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader());
        try {
            return work.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** {@code target/sql-shell}: beside the jar ({@code target/cluster-tools.jar}) or classes ({@code target/classes}). */
    static Path shellDir() {
        try {
            Path code = Path.of(HiveJdbc.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.toAbsolutePath().getParent().resolve(SHELL_DIR);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the ooo classes", e);
        }
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The URL of an endpoint's HTTP transport; the login travels as HTTP Basic credentials either way. */
    static String httpUrl(String host, int port, String path, boolean checksPasswords) {
        return "jdbc:hive2://" + host + ":" + port + "/default;transportMode=http;httpPath=" + path
                + (checksPasswords ? "" : ";auth=noSasl");
    }

    /** The URL of an endpoint: noSasl when it lets anyone in, SASL PLAIN when it checks passwords. */
    public static String url(String host, int port, boolean checksPasswords) {
        return checksPasswords ? "jdbc:hive2://" + host + ":" + port + "/default" : LocalCluster.jdbcUrl(host, port);
    }
}
