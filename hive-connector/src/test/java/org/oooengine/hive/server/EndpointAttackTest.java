package org.oooengine.hive.server;

import org.oooengine.core.net.ThrottledLog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hive.service.rpc.thrift.TCLIService;
import org.apache.hive.service.rpc.thrift.TExecuteStatementReq;
import org.apache.hive.service.rpc.thrift.TOpenSessionReq;
import org.apache.hive.service.rpc.thrift.TSessionHandle;
import org.apache.hive.service.rpc.thrift.TStatusCode;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQL endpoint under attack: crowds of idle or half-open sockets, password guessing, and
 * sessions left open. Each test is the attack, then what the attacker got and what other clients
 * still get. The attacker's sockets come from 127.0.0.2 (Linux routes all of 127/8 to loopback),
 * the real clients from 127.0.0.1, with the real Hive JDBC driver.
 */
class EndpointAttackTest {
    private static final InetAddress ATTACKER = address("127.0.0.2");
    private static final InetAddress CLIENT = address("127.0.0.1");

    private static IsolatedHiveDriver driver;
    private static Path passwordFile;
    private final ScriptedSqlEngine engine = new ScriptedSqlEngine();
    private final List<Socket> rawSockets = new ArrayList<>();
    private HiveServer2Endpoint endpoint;

    @BeforeAll
    static void loadDriver() throws Exception {
        driver = new IsolatedHiveDriver();
        passwordFile = Files.createTempFile("hs2-attack-users", ".txt");
        Files.writeString(passwordFile, "alice:right-password\nbob:builder\n");
    }

    @AfterAll
    static void removePasswords() throws IOException {
        Files.deleteIfExists(passwordFile);
    }

    @AfterEach
    void stop() {
        rawSockets.forEach(EndpointAttackTest::closeQuietly);
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private static EndpointConfig.Limits limits(int maxConnections, int perAddress, Duration handshake, Duration idleConnection,
                                                Duration idleSession, Duration loginDelay, Duration loginMaxDelay) {
        return new EndpointConfig.Limits(maxConnections, perAddress, handshake, idleConnection, idleSession, loginDelay, loginMaxDelay,
                EndpointConfig.Limits.DEFAULTS.loginChecksPerSecond());
    }

    private HiveServer2Endpoint securedEndpoint(EndpointConfig.Limits limits) throws IOException {
        endpoint = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwordFile).withLimits(limits));
        return endpoint;
    }

    private HiveServer2Endpoint openEndpoint(EndpointConfig.Limits limits) throws IOException {
        endpoint = HiveServer2Endpoint.start(engine, EndpointConfig.unauthenticated("127.0.0.1", 0).withLimits(limits));
        return endpoint;
    }

    @ParameterizedTest(name = "with a password file: {0}")
    @ValueSource(booleans = {true, false})
    void fiveHundredIdleSocketsLeaveTheEndpointServingOthers(boolean withPasswords) throws Exception {
        // The deadline leaves the crowd time to arrive, and the new client below time to be served,
        // on a loaded machine: both happen before the first admitted sockets time out and free
        // their slots for later ones.
        Duration handshake = Duration.ofSeconds(10);
        EndpointConfig.Limits limits = limits(100, 20, handshake, Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(100), Duration.ofSeconds(5));
        if (withPasswords) {
            securedEndpoint(limits);
        } else {
            openEndpoint(limits);
        }
        String url = withPasswords ? url() : url() + ";auth=noSasl";
        String user = withPasswords ? "alice" : "tester";
        String password = withPasswords ? "right-password" : null;
        try (Connection warmUp = driver.connect(url, user, password)) {
            assertEquals(user, queryString(warmUp, "select current_user()"));
        }
        // A client that finished its handshake before the crowd, then stays silent while the
        // crowd's handshakes run out: the deadline must not cut it (checked at the end).
        try (Connection settled = driver.connect(url, user, password)) {
            assertEquals(user, queryString(settled, "select current_user()"));
            long settledAt = System.nanoTime();

            // 500 sockets from one address: most send nothing, every fifth half a SASL start.
            long crowdStart = System.nanoTime();
            for (int i = 0; i < 500; i++) {
                Socket socket = connectFrom(ATTACKER, endpoint.port());
                if (i % 5 == 0) {
                    socket.getOutputStream().write(new byte[] {0x01, 0x00, 0x00});
                    socket.getOutputStream().flush();
                }
            }
            // The crowd holds no more than its address's quota (the settled client holds one more).
            waitUntil(() -> endpoint.openConnections() >= 21, 30_000);
            assertEquals(21, endpoint.openConnections(), "500 sockets opened in " + millisSince(crowdStart) + " ms");

            // A new client is served while the crowd still holds its quota, not once the deadline
            // has freed it: how long that takes is a latency for a benchmark, not for this test.
            long start = System.nanoTime();
            try (Connection connection = driver.connect(url, user, password)) {
                assertEquals(user, queryString(connection, "select current_user()"));
                assertEquals(22, endpoint.openConnections(), "a new client served after " + millisSince(start)
                        + " ms, the crowd's sockets admitted " + millisSince(crowdStart) + " ms ago");
            }

            // The handshake deadline closes the admitted ones, the refused ones are closed at once or
            // after their refusal: the server holds none of the 500, only the settled client.
            waitUntil(() -> endpoint.openConnections() == 1, handshake.toMillis() + 30_000);
            assertEquals(1, endpoint.openConnections());
            waitUntil(() -> stillOpen(rawSockets, 20) == 0, 30_000); // the refuser's last look at a silent socket
            assertEquals(0, stillOpen(rawSockets, 20), "every idle socket closed by the server");

            // The settled client has now been silent for longer than the handshake deadline (the
            // crowd, admitted after it, has run out of it): its reads wait again, it is not cut.
            Thread.sleep(Math.max(0, handshake.toMillis() + 500 - millisSince(settledAt)));
            assertEquals(user, queryString(settled, "select current_user()"));
        }
    }

    @Test
    void aClientOverALimitIsRefusedAtOnceAndToldWhy() throws Exception {
        // Five idle sockets from 127.0.0.1 fill that address's quota; the server has room for eight.
        openEndpoint(limits(8, 5, Duration.ofSeconds(30), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(100), Duration.ofSeconds(5)));
        for (int i = 0; i < 5; i++) {
            connectFrom(CLIENT, endpoint.port());
        }
        waitUntil(() -> endpoint.openConnections() == 5, 30_000);

        long start = System.nanoTime();
        SQLException raw = assertThrows(SQLException.class, () -> driver.connect(url() + ";auth=noSasl", "tester", null).close());
        assertTrue(raw.getMessage().contains("too many connections from 127.0.0.1: the limit is 5 per client address"),
                raw.getMessage());
        SQLException sasl = assertThrows(SQLException.class, () -> driver.connect(url(), "tester", "any").close());
        assertTrue(sasl.getMessage().contains("too many connections from 127.0.0.1"), sasl.getMessage());
        assertTrue(sasl.getMessage().contains(EndpointConfig.Limits.MAX_CONNECTIONS_PER_ADDRESS), sasl.getMessage());
        // told at once, not after the 30 s handshake deadline: 15 s is many times what a quiet
        // machine takes, so a loaded one passes too
        long millis = millisSince(start);
        assertTrue(millis < 15_000, "refused after " + millis + " ms");

        // Another address still gets in up to the overall limit; past it, everyone is told so.
        List<Socket> others = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            others.add(connectFrom(ATTACKER, endpoint.port()));
        }
        waitUntil(() -> endpoint.openConnections() == 8, 30_000);
        Socket overall = connectFrom(ATTACKER, endpoint.port());
        assertEquals("the server has reached its limit of 8 connections (" + EndpointConfig.Limits.MAX_CONNECTIONS
                + "); retry later", saslAnswer(overall, "tester", "any"));
        others.forEach(EndpointAttackTest::closeQuietly);

        // Closing the idle sockets gives their slots back at once.
        rawSockets.forEach(EndpointAttackTest::closeQuietly);
        waitUntil(() -> endpoint.openConnections() == 0, 30_000);
        try (Connection connection = driver.connect(url() + ";auth=noSasl", "tester", null)) {
            assertEquals("tester", queryString(connection, "select current_user()"));
        }
    }

    @Test
    void aThousandWrongPasswordsAreSlowedWhileTheRightOneGetsInFromElsewhere() throws Exception {
        Duration maxDelay = Duration.ofMillis(400);
        securedEndpoint(limits(200, 50, Duration.ofSeconds(10), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(20), maxDelay));
        long quietLoginMillis = timedLogin();
        try (CapturedLog log = new CapturedLog("org.oooengine.hive.server")) {
            // Twenty attackers guess alice's password until a thousand guesses are sent and alice
            // has logged in from her own address meanwhile.
            List<Guess> answers = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger sent = new AtomicInteger();
            AtomicBoolean aliceDone = new AtomicBoolean();
            ExecutorService attackers = Executors.newFixedThreadPool(20);
            List<Future<?>> running = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < 20; t++) {
                running.add(attackers.submit(() -> {
                    int n;
                    while ((n = sent.getAndIncrement()) < 1000 || !aliceDone.get()) {
                        answers.add(guess("alice", "guess-" + n));
                    }
                    return null;
                }));
            }
            waitUntil(() -> answers.size() >= 100, 10_000);
            long loginMillis = timedLogin();
            aliceDone.set(true);
            for (Future<?> attacker : running) {
                attacker.get(60, TimeUnit.SECONDS);
            }
            attackers.shutdown();
            long attackMillis = millisSince(start);
            // Getting in at all is the behaviour: a login not given a turn within twice the longest
            // delay is refused. The bound only says it did not queue behind the twenty guessers
            // (eight seconds of turns), with room for a loaded machine.
            assertTrue(loginMillis < quietLoginMillis + 5000, "the right password from another address got in after "
                    + loginMillis + " ms (" + quietLoginMillis + " ms without the attack)");
            assertTrue(answers.size() >= 1000, answers.size() + " guesses");

            List<Guess> checked = answers.stream().filter(g -> g.answer.contains("authentication failed")).toList();
            // refused at once by the address's turns, or after waiting too long for one of alice's
            List<Guess> throttled = answers.stream().filter(g -> g.answer.contains("too many failed logins from 127.0.0.2")
                    || g.answer.contains("too many failed logins for user 'alice'")).toList();
            assertEquals(answers.size(), checked.size() + throttled.size(), "every guess failed, one way or the other: "
                    + answers.stream().map(g -> g.answer).distinct().toList());
            // The first wave (one guess per attacker connection) is tried before any has failed;
            // after a few doublings the address gets a turn once per longest delay: the passwords
            // actually tried stay few, whatever the number sent.
            long bound = 20 + 10 + attackMillis / maxDelay.toMillis();
            assertTrue(checked.size() <= bound, checked.size() + " passwords tried in " + attackMillis + " ms (bound " + bound + ")");
            assertTrue(throttled.size() >= answers.size() * 8 / 10, throttled.size() + " of " + answers.size()
                    + " guesses refused without being tried");
            // A tried wrong password is answered only after alice's delay, which has grown to the cap.
            Guess lastChecked = checked.stream().max((a, b) -> Long.compare(a.startNanos, b.startNanos)).orElseThrow();
            assertTrue(lastChecked.millis >= maxDelay.toMillis() * 9 / 10, "late wrong password answered after " + lastChecked.millis + " ms");

            // A thousand failures are a handful of lines, not a thousand.
            List<String> failureLines = log.lines().stream().filter(l -> l.contains("127.0.0.2")).toList();
            assertTrue(!failureLines.isEmpty() && failureLines.size() <= 3, failureLines.toString());
        }
    }

    /**
     * HTTP Basic guesses for one user from twenty addresses go no faster than from one: the user's
     * password is checked once at a time, each check after the user's delay, whatever the address.
     */
    @Test
    void httpGuessesForOneUserFromTwentyAddressesAreNoFasterThanFromOne() throws Exception {
        Duration maxDelay = Duration.ofMillis(400);
        EndpointConfig.Limits limits = limits(200, 50, Duration.ofSeconds(10), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(20), maxDelay);
        endpoint = HiveServer2Endpoint.start(engine, EndpointConfig.withPasswordFile("127.0.0.1", 0, passwordFile)
                .withLimits(limits).withHttp(new EndpointConfig.Http(0, "cliservice")));
        GuessRun oneAddress = guessOverHttp("alice", i -> ATTACKER, 3000);
        GuessRun twentyAddresses = guessOverHttp("bob", i -> address("127.0.0." + (10 + i)), 3000);
        // about five checks in the first half second (delays of 20 ms to 320 ms), then one per 400 ms
        long bound = 6 + twentyAddresses.millis / maxDelay.toMillis();
        assertTrue(twentyAddresses.checked <= bound, "from twenty addresses " + twentyAddresses + ", bound " + bound);
        assertTrue(twentyAddresses.checked <= oneAddress.checked * 3 / 2 + 2, "from twenty addresses " + twentyAddresses
                + ", from one " + oneAddress);
        assertTrue(twentyAddresses.answers.stream().allMatch(a -> a.contains("wrong user or password")
                || a.contains("too many failed logins")), twentyAddresses.answers.toString());
    }

    /**
     * One guess each for many users, from many addresses, is capped by the endpoint's rate of
     * password checks; meanwhile alice, whose address has not been guessing, still logs in.
     */
    @Test
    void passwordsSprayedOverManyUsersAreCappedByTheEndpointsRate() throws Exception {
        int perSecond = 10;
        securedEndpoint(new EndpointConfig.Limits(200, 50, Duration.ofSeconds(10), Duration.ofHours(1), Duration.ofHours(1),
                Duration.ofMillis(20), Duration.ofSeconds(1), perSecond));
        long quietLoginMillis = timedLogin();
        List<String> answers = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger guesses = new AtomicInteger();
        ExecutorService attackers = Executors.newFixedThreadPool(20);
        List<Future<?>> running = new ArrayList<>();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(3);
        for (int t = 0; t < 20; t++) {
            InetAddress from = address("127.0.0." + (40 + t));
            running.add(attackers.submit(() -> {
                while (System.nanoTime() < end) {
                    String answer = guess(from, "user" + guesses.incrementAndGet(), "password1").answer;
                    answers.add(answer);
                    if (!answer.contains("authentication failed")) {
                        Thread.sleep(10); // refused at once: spare the machine a busy loop
                    }
                }
                return null;
            }));
        }
        Thread.sleep(1500);
        long loginMillis = timedLogin();
        for (Future<?> attacker : running) {
            attacker.get(30, TimeUnit.SECONDS);
        }
        attackers.shutdown();
        long attackMillis = millisSince(start);
        long checked = answers.stream().filter(a -> a.contains("authentication failed")).count();
        long refused = answers.stream().filter(a -> a.contains("the server is checking too many passwords (at most 10 a second, "
                + EndpointConfig.Limits.LOGIN_CHECKS_PER_SECOND + ")")).count();
        long refusedByAddress = answers.stream().filter(a -> a.contains("too many failed logins from 127.0.0.")).count();
        assertEquals(answers.size(), checked + refused + refusedByAddress, answers.stream().distinct().limit(5).toList().toString());
        // a second's burst, then the steady rate (alice's logins took two of these slots)
        long bound = perSecond + perSecond * attackMillis / 1000;
        assertTrue(checked <= bound, checked + " passwords checked in " + attackMillis + " ms (bound " + bound + ")");
        assertTrue(refused > 0, "guessers refused: " + answers.size() + " guesses");
        // Getting in at all is the behaviour (refused, the login would throw); the bound, ten times
        // what the attack adds on a quiet machine, only keeps a stall from passing unnoticed.
        assertTrue(loginMillis < quietLoginMillis + 10_000, "alice logged in after " + loginMillis + " ms ("
                + quietLoginMillis + " ms without the attack)");
    }

    @Test
    void idleSessionsAndConnectionsAreClosedButBusyOnesAreNot() throws Exception {
        openEndpoint(limits(100, 20, Duration.ofSeconds(10), Duration.ofSeconds(4), Duration.ofMillis(1500),
                Duration.ofMillis(100), Duration.ofSeconds(5)));
        try (TSocket idleSocket = new TSocket("127.0.0.1", endpoint.port());
             TSocket busySocket = new TSocket("127.0.0.1", endpoint.port())) {
            idleSocket.open();
            busySocket.open();
            TCLIService.Client idle = new TCLIService.Client(new TBinaryProtocol(idleSocket));
            TCLIService.Client busy = new TCLIService.Client(new TBinaryProtocol(busySocket));
            TSessionHandle idleSession = openSession(idle, "idler");
            TSessionHandle busySession = openSession(busy, "worker");

            // The busy session makes a call every 300 ms; the idle one none, until it is closed
            // (1.5 s on a quiet machine; a loaded one is given 30 s).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int i = 0; i < 8 || !engine.lastSessionOf("idler").closed && System.nanoTime() < deadline; i++) {
                Thread.sleep(300);
                TExecuteStatementReq req = new TExecuteStatementReq(busySession, "select current_user()");
                req.setRunAsync(false);
                assertEquals(TStatusCode.SUCCESS_STATUS, busy.ExecuteStatement(req).getStatus().getStatusCode());
            }
            assertTrue(engine.lastSessionOf("idler").closed, "the idle session was closed and its engine session freed");
            assertFalse(engine.lastSessionOf("worker").closed, "the busy session stays");
            TExecuteStatementReq late = new TExecuteStatementReq(idleSession, "select current_user()");
            late.setRunAsync(false);
            String error = idle.ExecuteStatement(late).getStatus().getErrorMessage();
            assertTrue(error.contains("Invalid SessionHandle"), error);

            // A connection that sends nothing for the idle-connection timeout is closed.
            Socket silent = connectFrom(CLIENT, endpoint.port());
            silent.getOutputStream().write(new byte[] {(byte) 0x80}); // handshake done: a raw Thrift client
            silent.getOutputStream().flush();
            long start = System.nanoTime();
            silent.setSoTimeout(30_000); // the timeout is 4 s: room for a loaded machine
            assertEquals(-1, silent.getInputStream().read(), "closed by the server");
            long millis = millisSince(start);
            assertTrue(millis >= 3500, "closed after " + millis + " ms, before its idle timeout");
        }
    }

    @Test
    void aClientOpeningSessionsInALoopIsCappedAndOthersAreServed() throws Exception {
        openEndpoint(EndpointConfig.Limits.DEFAULTS);
        try (TSocket socket = new TSocket("127.0.0.1", endpoint.port())) {
            socket.open();
            TCLIService.Client greedy = new TCLIService.Client(new TBinaryProtocol(socket));
            for (int i = 0; i < ClientConnection.MAX_SESSIONS; i++) {
                assertNotNull(openSession(greedy, "greedy"), "session " + i);
            }
            TOpenSessionReq more = new TOpenSessionReq();
            more.setUsername("greedy");
            var refused = greedy.OpenSession(more);
            assertEquals(TStatusCode.ERROR_STATUS, refused.getStatus().getStatusCode());
            assertTrue(refused.getStatus().getErrorMessage().contains("too many open sessions on this connection"),
                    refused.getStatus().getErrorMessage());
            assertEquals(ClientConnection.MAX_SESSIONS, engine.sessionsOf("greedy"), "the refused one never reached the engine");

            try (Connection other = driver.connect(url() + ";auth=noSasl", "tester", null)) {
                assertEquals("tester", queryString(other, "select current_user()"));
            }
        }
    }

    @Test
    void oneIpv6NetworkSharesOneQuotaWhateverAddressesItPicks() {
        // A host owns its whole /64: new addresses in it do not buy new connections.
        ConnectionAdmission admission = new ConnectionAdmission(100, 2);
        assertTrue(admission.admit(ClientAddress.of(address("2001:db8:1:2::1"))).isEmpty());
        assertTrue(admission.admit(ClientAddress.of(address("2001:db8:1:2:aaaa::7"))).isEmpty());
        assertEquals("too many connections from 2001:db8:1:2:0:0:0:0/64: the limit is 2 per client address ("
                + EndpointConfig.Limits.MAX_CONNECTIONS_PER_ADDRESS + "); close idle connections or retry later",
                admission.admit(ClientAddress.of(address("2001:db8:1:2:ffff:ffff:ffff:fffe"))).orElseThrow());
        // The next network, IPv4 addresses and the loopback address count on their own.
        assertTrue(admission.admit(ClientAddress.of(address("2001:db8:1:3::1"))).isEmpty());
        assertTrue(admission.admit(ClientAddress.of(address("::1"))).isEmpty());
        assertTrue(admission.admit(ClientAddress.of(address("10.0.0.1"))).isEmpty());
        assertTrue(admission.admit(ClientAddress.of(address("10.0.0.2"))).isEmpty());
        admission.release(ClientAddress.of(address("2001:db8:1:2::1")));
        assertTrue(admission.admit(ClientAddress.of(address("2001:db8:1:2::99"))).isEmpty());
        assertEquals(6, admission.open());
    }

    @Test
    void aFloodOfLogEventsIsAFewLinesWithCounts() throws Exception {
        try (CapturedLog log = new CapturedLog("org.oooengine.hive.server")) {
            ThrottledLog throttled = new ThrottledLog(LogManager.getLogger(EndpointAttackTest.class), Level.WARN, "bad events",
                    Duration.ofMillis(300));
            for (int i = 1; i <= 100; i++) {
                throttled.log("Bad event {}", i);
            }
            throttled.flush(); // too early: the interval has not passed
            Thread.sleep(350);
            throttled.flush();
            throttled.flush(); // nothing new
            Thread.sleep(350);
            throttled.log("Bad event {}", 101);
            throttled.log("Bad event {}", 102);
            Thread.sleep(350);
            throttled.log("Bad event {}", 103);
            String prefix = "WARN " + EndpointAttackTest.class.getName() + " ";
            assertEquals(List.of(prefix + "Bad event 1", prefix + "99 more bad events since the previous such line; the latest: Bad event 100",
                    prefix + "Bad event 101", prefix + "Bad event 103 (and 1 more bad events since the previous such line)"), log.lines());
        }
    }

    @Test
    void endpointSettingsComeFromCoordinatorKeys() {
        EndpointConfig.Limits limits = EndpointConfig.Limits.fromSettings(Map.of(
                "ooo.endpoint.max.connections", "64", "ooo.endpoint.handshake.timeout", "2s",
                "ooo.endpoint.idle.session.timeout", "0", "ooo.endpoint.login.failure.max.delay", "1500ms",
                "ooo.endpoint.login.checks.per.second", "25", "ooo.catalog", "embedded"));
        assertEquals(64, limits.maxConnections());
        assertEquals(EndpointConfig.Limits.DEFAULTS.maxConnectionsPerAddress(), limits.maxConnectionsPerAddress());
        assertEquals(Duration.ofSeconds(2), limits.handshakeTimeout());
        assertEquals(Duration.ZERO, limits.idleSessionTimeout());
        assertEquals(Duration.ofMillis(1500), limits.loginFailureMaxDelay());
        assertEquals(25, limits.loginChecksPerSecond());
        assertEquals(EndpointConfig.Limits.DEFAULTS, EndpointConfig.Limits.fromSettings(Map.of()));
        assertEquals(100, EndpointConfig.Limits.DEFAULTS.loginChecksPerSecond());

        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> EndpointConfig.Limits.fromSettings(Map.of("ooo.endpoint.max.conections", "5")));
        assertTrue(typo.getMessage().startsWith("unknown endpoint setting ooo.endpoint.max.conections; did you mean "
                + "ooo.endpoint.max.connections? known: "), typo.getMessage());
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class,
                () -> EndpointConfig.Limits.fromSettings(Map.of("ooo.endpoint.handshake.timeout", "10")));
        assertTrue(unit.getMessage().contains("ooo.endpoint.handshake.timeout is '10'; expected a duration such as 500ms"),
                unit.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> EndpointConfig.Limits.fromSettings(Map.of("ooo.endpoint.max.connections.per.address", "0")));
        assertTrue(zero.getMessage().contains("ooo.endpoint.max.connections.per.address is '0'; expected a whole number "
                + "(connections), 1 or more"), zero.getMessage());
        IllegalArgumentException rate = assertThrows(IllegalArgumentException.class,
                () -> EndpointConfig.Limits.fromSettings(Map.of("ooo.endpoint.login.checks.per.second", "-1")));
        assertTrue(rate.getMessage().contains("ooo.endpoint.login.checks.per.second is '-1'; expected a whole number"),
                rate.getMessage());
    }

    // ---- the attacker's tools

    private record Guess(String answer, long startNanos, long millis) {
    }

    /** One SASL PLAIN login from the attacker's address, as a raw client: the server's answer. */
    private Guess guess(String user, String password) throws IOException {
        return guess(ATTACKER, user, password);
    }

    /** One SASL PLAIN login from {@code from}, as a raw client: the server's answer. */
    private Guess guess(InetAddress from, String user, String password) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress(CLIENT, endpoint.port()));
            socket.setSoTimeout(20_000);
            String answer = saslAnswer(socket, user, password);
            return new Guess(answer, start, millisSince(start));
        }
    }

    /** What twenty guessers of one user's password got over HTTP: passwords checked, and every answer. */
    private record GuessRun(int checked, List<String> answers, long millis) {
        @Override
        public String toString() {
            return checked + " checked of " + answers.size() + " guesses in " + millis + " ms";
        }
    }

    /** Twenty guessers of {@code user}'s password over HTTP, the {@code i}-th from {@code from(i)}, for {@code millis}. */
    private GuessRun guessOverHttp(String user, java.util.function.IntFunction<InetAddress> from, long millis) throws Exception {
        List<String> answers = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger n = new AtomicInteger();
        ExecutorService guessers = Executors.newFixedThreadPool(20);
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Future<?>> running = new ArrayList<>();
        for (int t = 0; t < 20; t++) {
            InetAddress address = from.apply(t);
            running.add(guessers.submit(() -> {
                while (System.nanoTime() < end) {
                    String answer = httpAnswer(address, user, "guess-" + n.incrementAndGet());
                    answers.add(answer);
                    if (!answer.contains("wrong user or password")) {
                        Thread.sleep(10); // refused at once: spare the machine a busy loop
                    }
                }
                return null;
            }));
        }
        for (Future<?> g : running) {
            g.get(millis + 30_000, TimeUnit.MILLISECONDS);
        }
        guessers.shutdown();
        int checked = (int) answers.stream().filter(a -> a.contains("wrong user or password")).count();
        return new GuessRun(checked, List.copyOf(answers), millisSince(start));
    }

    /** One HTTP request with Basic credentials from {@code from}: the server's whole answer. */
    private String httpAnswer(InetAddress from, String user, String password) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress(CLIENT, endpoint.httpPort()), 5000);
            socket.setSoTimeout(20_000);
            String credentials = java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().write(("POST /cliservice HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                    + "Authorization: Basic " + credentials + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Sends a SASL PLAIN start and response; returns "COMPLETE" on success, else the server's message. */
    private static String saslAnswer(Socket socket, String user, String password) throws IOException {
        socket.setSoTimeout(20_000);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        byte[] mechanism = "PLAIN".getBytes(StandardCharsets.US_ASCII);
        out.writeByte(0x01);
        out.writeInt(mechanism.length);
        out.write(mechanism);
        byte[] response = ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
        out.writeByte(0x05);
        out.writeInt(response.length);
        out.write(response);
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int status = in.readUnsignedByte();
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        return status == 0x05 ? "COMPLETE" : new String(payload, StandardCharsets.UTF_8);
    }

    private Socket connectFrom(InetAddress from, int port) throws IOException {
        Socket socket = new Socket();
        rawSockets.add(socket);
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(new InetSocketAddress(CLIENT, port), 5000);
        return socket;
    }

    /** How many of {@code sockets} the server has not closed (each given {@code millis} to show it). */
    private static int stillOpen(List<Socket> sockets, int millis) {
        int open = 0;
        for (Socket socket : sockets) {
            try {
                socket.setSoTimeout(millis);
                if (socket.getInputStream().read() != -1) {
                    continue; // the server answered something: a refusal, then its close
                }
            } catch (SocketTimeoutException e) {
                open++;
            } catch (SocketException e) {
                // reset or closed: not open
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        return open;
    }

    private static TSessionHandle openSession(TCLIService.Client client, String user) throws Exception {
        TOpenSessionReq req = new TOpenSessionReq();
        req.setUsername(user);
        return client.OpenSession(req).getSessionHandle();
    }

    /** Alice logs in with the JDBC driver and runs a query: how long it took. */
    private long timedLogin() throws SQLException {
        long start = System.nanoTime();
        try (Connection connection = driver.connect(url(), "alice", "right-password")) {
            assertEquals("alice", queryString(connection, "select current_user()"));
        }
        return millisSince(start);
    }

    private String url() {
        return "jdbc:hive2://127.0.0.1:" + endpoint.port() + "/default";
    }

    private static String queryString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void waitUntil(Condition condition, long millis) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.holds() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** The log lines of a logger (and those under it) at INFO and above while open. */
    private static final class CapturedLog extends AbstractAppender implements AutoCloseable {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final LoggerConfig logger;

        CapturedLog(String loggerName) {
            super("captured-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY);
            LoggerContext context = (LoggerContext) LogManager.getContext(false);
            logger = context.getConfiguration().getLoggerConfig(loggerName);
            start();
            logger.addAppender(this, Level.INFO, null);
            context.updateLoggers();
        }

        @Override
        public void append(LogEvent event) {
            lines.add(event.getLevel() + " " + event.getLoggerName() + " " + event.getMessage().getFormattedMessage());
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void close() {
            logger.removeAppender(getName());
            ((LoggerContext) LogManager.getContext(false)).updateLoggers();
            stop();
        }
    }
}
