package org.oooengine.core.settings;

import static org.oooengine.core.settings.Scope.COORDINATOR;

import java.time.Duration;
import java.util.List;

/**
 * The operator's settings, for every session: the catalog, who administers, which files LOAD DATA
 * reads, the coordinator's spill space and the endpoint's limits. A session's {@code SET} of one
 * is refused. The caps on the session's limits are in {@link SessionSettings}.
 */
public final class CoordinatorSettings {
    private static final Declarations DECLARED = new Declarations();

    public static final Setting<String> CATALOG = DECLARED.add(Setting.choice("ooo.catalog", "embedded", "hms")
            .scope(COORDINATOR).defaultValue("embedded")
            .doc("`embedded`: the catalog kept in `<cluster-dir>/catalog.json`. `hms`: the databases and tables of a "
                    + "Hive Metastore, whose tables INSERT writes and CREATE and DROP make and drop as tables in files "
                    + "(other changes of the catalog go through Hive)."));
    public static final Setting<String> CATALOG_HMS_URIS = DECLARED.add(Setting.text("ooo.catalog.hms.uris")
            .scope(COORDINATOR)
            .doc("The metastore(s) to ask with `ooo.catalog=hms`, as Hive's `hive.metastore.uris`, e.g. "
                    + "`thrift://metastore1:9083,thrift://metastore2:9083`."));
    public static final Setting<String> CATALOG_HMS_CONF = DECLARED.add(Setting.text("ooo.catalog.hms.conf.")
            .scope(COORDINATOR)
            .doc("`ooo.catalog.hms.conf.<key>`: any Hadoop or metastore-client setting for the metastore catalog, "
                    + "without the prefix: `fs.defaultFS`, client timeouts, Kerberos."));
    public static final Setting<List<String>> SECURITY_ADMIN_USERS = DECLARED.add(Setting.list("ooo.security.admin-users")
            .scope(COORDINATOR)
            .doc("The users who may create, drop, insert, update, delete and load, when they log in with a password; "
                    + "every other user may only read (see security.md)."));
    public static final Setting<Boolean> SECURITY_ADMINS_EXCEED_CAPS = DECLARED.add(Setting.flag("ooo.security.admins-exceed-caps")
            .scope(COORDINATOR).defaultValue(false)
            .doc("Whether admin users may set the session limits past the coordinator's caps (never past a node's own)."));
    public static final Setting<List<String>> LOAD_ALLOWED_DIRS = DECLARED.add(Setting.list("ooo.load.allowed-dirs")
            .scope(COORDINATOR)
            .doc("The directories on the coordinator's file system under which SQL reads files (LOAD DATA, and the "
                    + "files of external and metastore tables, on the nodes too): existing absolute directories outside "
                    + "the cluster directory. None by default, so SQL reads no local file."));
    public static final Setting<List<String>> LOAD_FILE_SYSTEMS = DECLARED.add(Setting.list("ooo.load.file-systems")
            .scope(COORDINATOR).defaultValue(List.of("hdfs"))
            .doc("The other file systems (URI schemes) SQL reads (LOAD DATA, and the files of external and "
                    + "metastore tables), as the coordinator's and the nodes' Hadoop identity."));
    public static final Setting<Long> SPILL_COORDINATOR_MAX_BYTES = DECLARED.add(Setting.size("ooo.spill.coordinator-max-bytes")
            .scope(COORDINATOR).range(1, Long.MAX_VALUE)
            .defaultText("half the space free under the system's temporary directory when the engine opens")
            .doc("The disk the spill files of all the coordinator's statements may take together."));
    public static final Setting<Duration> NODE_RESTART_WAIT = DECLARED.add(Setting.duration("ooo.node.restart-wait", null)
            .scope(COORDINATOR).defaultValue(Duration.ofSeconds(10))
            .doc("How long a statement that lost its connection to a node waits, at most, for the node to answer again "
                    + "(its supervisor restarts it after a few seconds) and say how its previous run ended: out of memory "
                    + "while the statement ran fails it with SQLSTATE 53200 naming the node, anything else with 58000. "
                    + "0: the statement fails at once with 58000."));

    public static final Setting<Long> ENDPOINT_MAX_CONNECTIONS = DECLARED.add(endpointCount(
            "ooo.endpoint.max.connections", 1, 500, "connections",
            "Connections the endpoint holds at once; a further one is refused."));
    public static final Setting<Long> ENDPOINT_MAX_CONNECTIONS_PER_ADDRESS = DECLARED.add(endpointCount(
            "ooo.endpoint.max.connections.per.address", 1, 50, "connections",
            "Connections one client address may hold at once, so that one host cannot take every slot."));
    public static final Setting<Duration> ENDPOINT_HANDSHAKE_TIMEOUT = DECLARED.add(endpointDuration(
            "ooo.endpoint.handshake.timeout", Duration.ofSeconds(10),
            "The time a new connection has to choose its transport and log in; then it is closed. More than 0."));
    public static final Setting<Duration> ENDPOINT_IDLE_CONNECTION_TIMEOUT = DECLARED.add(endpointDuration(
            "ooo.endpoint.idle.connection.timeout", Duration.ofHours(1),
            "A logged-in connection that sends no request for this long is closed with its sessions; 0: never."));
    public static final Setting<Duration> ENDPOINT_IDLE_SESSION_TIMEOUT = DECLARED.add(endpointDuration(
            "ooo.endpoint.idle.session.timeout", Duration.ofHours(1),
            "A session with no call and no running statement for this long is closed, freeing its results; 0: never."));
    public static final Setting<Duration> ENDPOINT_LOGIN_FAILURE_DELAY = DECLARED.add(endpointDuration(
            "ooo.endpoint.login.failure.delay", Duration.ofMillis(100),
            "The wait after a first failed login; it doubles with each further failure of the same address or user."));
    public static final Setting<Duration> ENDPOINT_LOGIN_FAILURE_MAX_DELAY = DECLARED.add(endpointDuration(
            "ooo.endpoint.login.failure.max.delay", Duration.ofSeconds(5),
            "The most a login waits; an address whose turn is further away is refused at once. One failure is "
                    + "forgotten per this much quiet time. More than 0, and at least the login delay."));
    public static final Setting<Long> ENDPOINT_LOGIN_CHECKS_PER_SECOND = DECLARED.add(endpointCount(
            "ooo.endpoint.login.checks.per.second", 0, 100, "checks a second",
            "Password checks a second over all users and addresses, on both transports; 0: no limit."));

    public static final Setting<String> HTTP_TRANSPORT_MODE = DECLARED.add(Setting.choice("hive.server2.transport.mode",
            "binary", "http", "all")
            .scope(COORDINATOR).defaultValue("binary")
            .doc("The endpoint's transports, as HiveServer2's: `binary` (Thrift over TCP), or `http`/`all`, which also "
                    + "serve Thrift over HTTP on their own port."));
    public static final Setting<Long> HTTP_PORT = DECLARED.add(Setting.count("hive.server2.thrift.http.port")
            .scope(COORDINATOR).range(0, 65535).defaultValue(10001L)
            .doc("The port of the HTTP transport; 0: any free port."));
    public static final Setting<String> HTTP_PATH = DECLARED.add(Setting.text("hive.server2.thrift.http.path")
            .scope(COORDINATOR).defaultValue("cliservice")
            .doc("The path the HTTP transport serves, as HiveServer2's."));

    private CoordinatorSettings() {
    }

    /** Every setting declared here, in the order of the documentation. */
    public static List<Setting<?>> all() {
        return DECLARED.all();
    }

    private static Setting.Builder<Long> endpointCount(String name, long min, long defaultValue, String unit, String doc) {
        return Setting.count(name).scope(COORDINATOR).range(min, Long.MAX_VALUE).unit(unit).defaultValue(defaultValue)
                .doc(doc);
    }

    private static Setting.Builder<Duration> endpointDuration(String name, Duration defaultValue, String doc) {
        return Setting.duration(name, null).scope(COORDINATOR).defaultValue(defaultValue).doc(doc);
    }
}
