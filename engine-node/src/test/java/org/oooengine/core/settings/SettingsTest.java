package org.oooengine.core.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.oooengine.core.cluster.RuntimeLimits;

class SettingsTest {
    @Test
    void sizesTakeUnitsAndAPlainNumberIsBytes() {
        Setting<Long> memory = SessionSettings.QUERY_MAX_MEMORY;
        assertEquals(64L << 20, memory.parse("64MB"));
        assertEquals(64L << 20, memory.parse("64m"));
        assertEquals(1L << 30, memory.parse(" 1GB "));
        assertEquals(1536L << 20, memory.parse("1.5GiB"));
        assertEquals(1_000_000L, memory.parse("1000000"));
        assertEquals(0L, memory.parse("0"));
        assertEquals(8L << 20, SessionSettings.JOIN_BROADCAST_MAX_BYTES.get(Map.of()));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> memory.parse("lots"));
        assertEquals("ooo.query.max-memory is 'lots'; expected a size such as 64MB, 512k or 1g (a plain number is bytes), "
                + "0 or more", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> memory.parse("-1"));
        assertThrows(IllegalArgumentException.class, () -> CoordinatorSettings.SPILL_COORDINATOR_MAX_BYTES.parse("0"));
        // a size a reader without units gets in bytes
        assertEquals(Long.toString(64L << 20), SessionSettings.MAPREDUCE_SPLIT_MINSIZE.normalized("64MB"));
    }

    @Test
    void durationsCountsFlagsAndChoicesAreChecked() {
        assertEquals(Duration.ofSeconds(10), CoordinatorSettings.ENDPOINT_HANDSHAKE_TIMEOUT.parse("10s"));
        assertEquals(Duration.ofMillis(1500), CoordinatorSettings.ENDPOINT_LOGIN_FAILURE_MAX_DELAY.parse("1500ms"));
        assertEquals(Duration.ZERO, CoordinatorSettings.ENDPOINT_IDLE_SESSION_TIMEOUT.parse("0"));
        IllegalArgumentException unitless = assertThrows(IllegalArgumentException.class,
                () -> CoordinatorSettings.ENDPOINT_HANDSHAKE_TIMEOUT.parse("10"));
        assertEquals("ooo.endpoint.handshake.timeout is '10'; expected a duration such as 500ms, 10s, 5m or 1h",
                unitless.getMessage());
        assertEquals(5L, SessionSettings.TRANSACTION_ATTEMPTS.get(Map.of()));
        assertEquals(100L, SessionSettings.TRANSACTION_ATTEMPTS.parse("100"));
        IllegalArgumentException attempts = assertThrows(IllegalArgumentException.class,
                () -> SessionSettings.TRANSACTION_ATTEMPTS.parse("101"));
        assertTrue(attempts.getMessage().endsWith("expected a whole number (attempts) from 1 to 100"), attempts.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SessionSettings.MAPREDUCE_JOB_REDUCES.parse("${env.HOME}"));
        assertEquals(false, SessionSettings.AGGREGATE_MERGE_ON_NODES.parse("FALSE"));
        assertEquals("ooo.aggregate.merge-on-nodes is 'maybe'; expected true or false", assertThrows(
                IllegalArgumentException.class, () -> SessionSettings.AGGREGATE_MERGE_ON_NODES.parse("maybe")).getMessage());
        assertEquals("mapreduce", SessionSettings.EXECUTION_MODE.parse("MapReduce"));
        assertEquals("ooo.execution.mode is 'bogus'; expected daemon or mapreduce", assertThrows(
                IllegalArgumentException.class, () -> SessionSettings.EXECUTION_MODE.parse("bogus")).getMessage());
        assertEquals(List.of("alice", "bob"), CoordinatorSettings.SECURITY_ADMIN_USERS.parse(" alice, ,bob "));
    }

    @Test
    void theNearestNameIsNamed() {
        assertEquals("ooo.query.max-memory", Settings.nearest("ooo.query.max-memroy"));
        assertEquals("ooo.join.method", Settings.nearest("ooo.join.methd"));
        assertEquals("ooo.endpoint.max.connections", Settings.nearest("ooo.endpoint.max.conections"));
        assertEquals(1, Settings.distance("memroy", "memory"));
        assertEquals(3, Settings.distance("kitten", "sitting"));
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkSession("ooo.query.max-memroy", "1GB"));
        assertTrue(typo.getMessage().startsWith("SET ooo.query.max-memroy is refused: there is no such session setting; "
                + "did you mean ooo.query.max-memory?"), typo.getMessage());
    }

    @Test
    void aSessionSetsOnlySessionSettingsAndWellFormedValues() {
        assertEquals(SessionSettings.QUERY_MAX_MEMORY, Settings.checkSession("ooo.query.max-memory", "64MB").orElseThrow());
        assertEquals(SessionSettings.QUERY_MAX_MEMORY, Settings.checkSession("ooo.query.max-memory", null).orElseThrow());
        assertTrue(Settings.checkSession("hive.server2.thrift.resultset.default.fetch.size", "1000").isEmpty(),
                "a setting not the engine's passes");
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkSession("ooo.query.max-memory", "64 apples"));
        assertTrue(malformed.getMessage().startsWith("SET ooo.query.max-memory=64 apples is refused: ooo.query.max-memory "
                + "is '64 apples'; expected a size such as 64MB"), malformed.getMessage());
        IllegalArgumentException operators = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkSession("ooo.security.admin-users", "mallory"));
        assertTrue(operators.getMessage().startsWith("SET ooo.security.admin-users is refused: it is the operator's"),
                operators.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Settings.checkSession("ooo.catalog.hms.conf.fs.defaultFS", "x"));
        assertThrows(IllegalArgumentException.class, () -> Settings.checkSession("ooo.primary.key", "a"));
        assertThrows(IllegalArgumentException.class, () -> Settings.checkSession("ooo.cluster.timeout.ms", "1"));
    }

    @Test
    void theCoordinatorRefusesMisspeltMisplacedAndMalformedSettings() {
        Settings.checkCoordinator(Map.of("ooo.query.max-memory", "8MB", "ooo.catalog", "hms",
                "ooo.catalog.hms.conf.fs.defaultFS", "hdfs://nn:8020", "fs.defaultFS", "file:///", "hive.other", "x"));
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkCoordinator(Map.of("ooo.security.admin-user", "root")));
        assertTrue(typo.getMessage().startsWith("unknown setting ooo.security.admin-user in the coordinator's settings; "
                + "did you mean ooo.security.admin-users?"), typo.getMessage());
        IllegalArgumentException session = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkCoordinator(Map.of("ooo.execution.mode", "mapreduce")));
        assertTrue(session.getMessage().startsWith("ooo.execution.mode is not a coordinator setting: it is a session's"),
                session.getMessage());
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class,
                () -> Settings.checkCoordinator(Map.of("ooo.spill.coordinator-max-bytes", "half")));
        assertTrue(malformed.getMessage().startsWith("ooo.spill.coordinator-max-bytes is 'half'; expected a size"),
                malformed.getMessage());
    }

    @Test
    void everySettingIsDeclaredOnceWithAScopeAndADoc() {
        Set<String> names = new HashSet<>();
        for (Setting<?> s : Settings.all()) {
            assertTrue(names.add(s.name()), "declared twice: " + s.name());
            assertFalse(s.doc().isBlank(), s.name());
            assertFalse(s.scopes().isEmpty(), s.name());
            if (s.defaultValue() != null) {
                assertEquals(s.defaultValue(), parsedBack(s), s.name() + ": the default as written parses back");
            }
        }
        assertEquals(CoordinatorSettings.CATALOG_HMS_CONF, Settings.find("ooo.catalog.hms.conf.fs.defaultFS").orElseThrow());
    }

    private static <T> T parsedBack(Setting<T> s) {
        return s.parse(s.format(s.defaultValue()));
    }

    @Test
    void theRuntimeReadsItsLimitsTyped() {
        RuntimeLimits limits = RuntimeLimits.of(Map.of("ooo.query.max-memory", "64MB", "ooo.spill.max-bytes", "1g"));
        assertEquals(64L << 20, limits.memoryBytes());
        assertEquals(1L << 30, limits.spillMaxBytes());
        assertEquals(0L, limits.memoryPerNodeBytes());
        assertEquals(1L << 30, limits.nodeLimits().spillBytes());
    }
}
