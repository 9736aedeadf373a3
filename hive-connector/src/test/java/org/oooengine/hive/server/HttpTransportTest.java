package org.oooengine.hive.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HTTP transport: the Hive JDBC driver's {@code transportMode=http} against it, with passwords
 * checked per request, and the binary port's protections holding for HTTP connections too.
 */
class HttpTransportTest {
    private static IsolatedHiveDriver driver;
    private static Path passwordFile;
    private final ScriptedSqlEngine engine = new ScriptedSqlEngine();
    private final List<Socket> sockets = new ArrayList<>();
    private HiveServer2Endpoint endpoint;

    @BeforeAll
    static void loadDriver() throws Exception {
        driver = new IsolatedHiveDriver();
        passwordFile = Files.createTempFile("hs2-http-users", ".txt");
        passwordFile.toFile().deleteOnExit();
        Files.writeString(passwordFile, "alice:right-password\n");
    }

    @AfterEach
    void stop() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private void start(EndpointConfig.Limits limits) throws IOException {
        endpoint = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwordFile)
                .withLimits(limits).withHttp(new EndpointConfig.Http(0, "cliservice")));
    }

    private String url() {
        return "jdbc:hive2://127.0.0.1:" + endpoint.httpPort() + "/default;transportMode=http;httpPath=cliservice";
    }

    @Test
    void theDriverLogsInPerRequestAndWrongPasswordsAreRefused() throws Exception {
        start(EndpointConfig.Limits.DEFAULTS);
        try (Connection c = driver.connect(url(), "alice", "right-password"); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select current_user()")) {
                assertTrue(rs.next());
                assertEquals("alice", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("select range 2500")) { // three fetches, each its own request
                int rows = 0;
                while (rs.next()) {
                    rows++;
                }
                assertEquals(2500, rows);
            }
        }
        SQLException wrong = assertThrows(SQLException.class, () -> driver.connect(url(), "alice", "guess").close());
        assertTrue(wrong.getMessage().contains("401"), wrong.getMessage());
        SQLException nobody = assertThrows(SQLException.class, () -> driver.connect(url(), "mallory", "x").close());
        assertTrue(nobody.getMessage().contains("401"), nobody.getMessage());
        assertEquals(0, engine.sessionsOf("mallory"));
    }

    @Test
    void otherPathsAndMethodsAreNotThrift() throws Exception {
        start(EndpointConfig.Limits.DEFAULTS);
        assertTrue(exchange("GET /cliservice HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startsWith("HTTP/1.1 405"));
        assertTrue(exchange("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .startsWith("HTTP/1.1 404"));
        String garbage = exchange("POST /cliservice HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n"
                + "Authorization: Basic YWxpY2U6cmlnaHQtcGFzc3dvcmQ=\r\n\r\nabc");
        assertTrue(garbage.startsWith("HTTP/1.1 400"), garbage);
    }

    @Test
    void halfRequestsHoldSlotsOnlyUntilTheDeadlineAndCountAgainstTheLimits() throws Exception {
        Duration handshake = Duration.ofSeconds(1);
        start(new EndpointConfig.Limits(10, 3, handshake, Duration.ofSeconds(2), Duration.ofHours(1),
                Duration.ofMillis(100), Duration.ofSeconds(5), 100));
        for (int i = 0; i < 3; i++) {
            Socket s = connectFrom("127.0.0.2");
            s.getOutputStream().write("POST /cliservice HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        waitUntil(() -> endpoint.openConnections() == 3, 30_000);
        String refused = new String(readAll(connectFrom("127.0.0.2")), StandardCharsets.UTF_8);
        assertTrue(refused.startsWith("HTTP/1.1 503") && refused.contains("too many connections from 127.0.0.2"), refused);
        // A client elsewhere still gets in meanwhile.
        try (Connection c = driver.connect(url(), "alice", "right-password"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select current_user()")) {
            assertTrue(rs.next());
        }
        waitUntil(() -> endpoint.openConnections() == 0, handshake.toMillis() + 30_000);
        for (Socket s : sockets.subList(0, 3)) {
            s.setSoTimeout(30_000); // returns once closed: the generous wait is for a loaded machine
            assertEquals(-1, s.getInputStream().read(), "the server closed a half request's connection");
        }
    }

    private String exchange(String request) throws IOException {
        Socket s = connectFrom("127.0.0.1");
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        return new String(readAll(s), StandardCharsets.UTF_8);
    }

    private Socket connectFrom(String ip) throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.bind(new InetSocketAddress(InetAddress.getByName(ip), 0));
        s.connect(new InetSocketAddress("127.0.0.1", endpoint.httpPort()), 2000);
        return s;
    }

    private static byte[] readAll(Socket s) throws IOException {
        s.setSoTimeout(5000);
        InputStream in = s.getInputStream();
        return in.readAllBytes();
    }

    private static void waitUntil(BooleanSupplier condition, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
    }
}
