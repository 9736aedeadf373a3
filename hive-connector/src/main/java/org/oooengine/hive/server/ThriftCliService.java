package org.oooengine.hive.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.hive.service.rpc.thrift.TCLIService;
import org.apache.hive.service.rpc.thrift.TCancelDelegationTokenReq;
import org.apache.hive.service.rpc.thrift.TCancelDelegationTokenResp;
import org.apache.hive.service.rpc.thrift.TCancelOperationReq;
import org.apache.hive.service.rpc.thrift.TCancelOperationResp;
import org.apache.hive.service.rpc.thrift.TCloseOperationReq;
import org.apache.hive.service.rpc.thrift.TCloseOperationResp;
import org.apache.hive.service.rpc.thrift.TCloseSessionReq;
import org.apache.hive.service.rpc.thrift.TCloseSessionResp;
import org.apache.hive.service.rpc.thrift.TDownloadDataReq;
import org.apache.hive.service.rpc.thrift.TDownloadDataResp;
import org.apache.hive.service.rpc.thrift.TExecuteStatementReq;
import org.apache.hive.service.rpc.thrift.TExecuteStatementResp;
import org.apache.hive.service.rpc.thrift.TFetchOrientation;
import org.apache.hive.service.rpc.thrift.TFetchResultsReq;
import org.apache.hive.service.rpc.thrift.TFetchResultsResp;
import org.apache.hive.service.rpc.thrift.TGetCatalogsReq;
import org.apache.hive.service.rpc.thrift.TGetCatalogsResp;
import org.apache.hive.service.rpc.thrift.TGetColumnsReq;
import org.apache.hive.service.rpc.thrift.TGetColumnsResp;
import org.apache.hive.service.rpc.thrift.TGetCrossReferenceReq;
import org.apache.hive.service.rpc.thrift.TGetCrossReferenceResp;
import org.apache.hive.service.rpc.thrift.TGetDelegationTokenReq;
import org.apache.hive.service.rpc.thrift.TGetDelegationTokenResp;
import org.apache.hive.service.rpc.thrift.TGetFunctionsReq;
import org.apache.hive.service.rpc.thrift.TGetFunctionsResp;
import org.apache.hive.service.rpc.thrift.TGetInfoReq;
import org.apache.hive.service.rpc.thrift.TGetInfoResp;
import org.apache.hive.service.rpc.thrift.TGetInfoValue;
import org.apache.hive.service.rpc.thrift.TGetOperationStatusReq;
import org.apache.hive.service.rpc.thrift.TGetOperationStatusResp;
import org.apache.hive.service.rpc.thrift.TGetPrimaryKeysReq;
import org.apache.hive.service.rpc.thrift.TGetPrimaryKeysResp;
import org.apache.hive.service.rpc.thrift.TGetQueryIdReq;
import org.apache.hive.service.rpc.thrift.TGetQueryIdResp;
import org.apache.hive.service.rpc.thrift.TGetResultSetMetadataReq;
import org.apache.hive.service.rpc.thrift.TGetResultSetMetadataResp;
import org.apache.hive.service.rpc.thrift.TGetSchemasReq;
import org.apache.hive.service.rpc.thrift.TGetSchemasResp;
import org.apache.hive.service.rpc.thrift.TGetTableTypesReq;
import org.apache.hive.service.rpc.thrift.TGetTableTypesResp;
import org.apache.hive.service.rpc.thrift.TGetTablesReq;
import org.apache.hive.service.rpc.thrift.TGetTablesResp;
import org.apache.hive.service.rpc.thrift.TGetTypeInfoReq;
import org.apache.hive.service.rpc.thrift.TGetTypeInfoResp;
import org.apache.hive.service.rpc.thrift.THandleIdentifier;
import org.apache.hive.service.rpc.thrift.TOpenSessionReq;
import org.apache.hive.service.rpc.thrift.TOpenSessionResp;
import org.apache.hive.service.rpc.thrift.TOperationHandle;
import org.apache.hive.service.rpc.thrift.TOperationType;
import org.apache.hive.service.rpc.thrift.TProtocolVersion;
import org.apache.hive.service.rpc.thrift.TRenewDelegationTokenReq;
import org.apache.hive.service.rpc.thrift.TRenewDelegationTokenResp;
import org.apache.hive.service.rpc.thrift.TSessionHandle;
import org.apache.hive.service.rpc.thrift.TSetClientInfoReq;
import org.apache.hive.service.rpc.thrift.TSetClientInfoResp;
import org.apache.hive.service.rpc.thrift.TStatus;
import org.apache.hive.service.rpc.thrift.TTableSchema;
import org.apache.hive.service.rpc.thrift.TUploadDataReq;
import org.apache.hive.service.rpc.thrift.TUploadDataResp;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.hive.catalog.Catalog;
import org.oooengine.hive.sql.SessionUser;
import org.oooengine.hive.sql.SqlEngine;
import org.oooengine.core.sql.SqlException;
import org.oooengine.hive.sql.SqlSession;

/**
 * The HiveServer2 RPCs (TCLIService) over our engine. Every call answers with a status rather
 * than an exception, because the driver turns a status into an SQLException with the SQLSTATE,
 * whereas a Thrift exception only breaks the connection.
 */
final class ThriftCliService implements TCLIService.Iface {
    private static final Logger LOG = LogManager.getLogger(ThriftCliService.class);

    static final String FETCH_SIZE_KEY = "hive.server2.thrift.resultset.default.fetch.size";
    /** How long one GetOperationStatus waits for a running statement: the driver polls without pause. */
    static final long POLL_WAIT_MILLIS = 250;
    private static final short FETCH_TYPE_LOGS = 1;
    private static final String ANONYMOUS = "anonymous";
    /** HiveQL words that are not SQL:2003 keywords, for DatabaseMetaData.getSQLKeywords(). */
    private static final String KEYWORDS = String.join(",", List.of("CLUSTER", "DATABASES", "DBPROPERTIES",
            "DEFERRED", "DISTRIBUTE", "EXPLAIN", "EXTENDED", "FORMAT", "FORMATTED", "LATERAL", "LIMIT", "LOAD",
            "LOCATION", "OVERWRITE", "PARTITIONED", "RLIKE", "SCHEMAS", "SEMI", "SERDE", "SHOW", "SORT",
            "STORED", "TABLESAMPLE", "TBLPROPERTIES", "TEMPORARY", "TRANSFORM"));

    private final SqlEngine engine;
    private final SessionRegistry registry;
    private final ExecutorService statementExecutor;
    private final ScheduledExecutorService timer;
    private final int defaultFetchSize;
    private final boolean checksPasswords;

    /** @param checksPasswords whether a SASL login's user is the one whose password was checked */
    ThriftCliService(SqlEngine engine, SessionRegistry registry, ExecutorService statementExecutor,
                     ScheduledExecutorService timer, int defaultFetchSize, boolean checksPasswords) {
        this.engine = engine;
        this.registry = registry;
        this.statementExecutor = statementExecutor;
        this.timer = timer;
        this.defaultFetchSize = defaultFetchSize;
        this.checksPasswords = checksPasswords;
    }

    // ---- sessions

    @Override
    public TOpenSessionResp OpenSession(TOpenSessionReq req) {
        // The driver reads the configuration map before it checks the status: never leave it null.
        TProtocolVersion protocol = ProtocolVersions.negotiate(req.getClient_protocol());
        TOpenSessionResp resp = new TOpenSessionResp(Statuses.ok(), protocol);
        resp.setConfiguration(Map.of(FETCH_SIZE_KEY, Integer.toString(defaultFetchSize)));
        ClientConnection connection = ClientConnection.current();
        try {
            if (connection != null) {
                connection.checkCanOpenSession();
            }
            SessionUser user = userOf(connection, req);
            Map<String, String> conf = req.getConfiguration() == null ? Map.of() : req.getConfiguration();
            SqlSession sql = engine.openSession(user, conf.get("use:database"), SessionSettings.from(conf));
            String peer = connection == null ? "unknown" : connection.peer();
            ServerSession session = new ServerSession(HandleId.random(), sql, peer, protocol);
            registry.add(session);
            if (connection != null) {
                connection.sessionOpened(session.id().guid());
            }
            resp.setSessionHandle(new TSessionHandle(session.id().toThrift()));
            LOG.debug("Session {} opened for {} ({}) from {} (client protocol {}, serving {})", session.id(),
                    user.name(), user.login(), peer, req.getClient_protocol(), protocol);
        } catch (Exception e) {
            LOG.info("Opening a session failed: {}", e.getMessage());
            resp.setStatus(Statuses.error(e));
        }
        return resp;
    }

    /**
     * With a password file, the user whose password SASL checked, and a client let in without one
     * is "anonymous" whatever name it gives. Without, SASL's user or the name a raw client gives
     * (the driver's default is "anonymous"), neither proved.
     */
    private SessionUser userOf(ClientConnection connection, TOpenSessionReq req) {
        String login = connection == null ? null : connection.authenticatedUser();
        if (checksPasswords) {
            return login != null ? SessionUser.withPassword(login)
                    : new SessionUser(ANONYMOUS, SessionUser.Login.ANONYMOUS);
        }
        String claimed = login != null ? login : req.getUsername();
        return SessionUser.unchecked(claimed == null || claimed.isEmpty() ? ANONYMOUS : claimed);
    }

    @Override
    public TCloseSessionResp CloseSession(TCloseSessionReq req) {
        try {
            ServerSession session = registry.session(req.getSessionHandle().getSessionId());
            registry.close(session.id().guid());
            ClientConnection connection = ClientConnection.current();
            if (connection != null) {
                connection.sessionClosed(session.id().guid());
            }
            return new TCloseSessionResp(Statuses.ok());
        } catch (Exception e) {
            return new TCloseSessionResp(Statuses.error(e));
        }
    }

    @Override
    public TGetInfoResp GetInfo(TGetInfoReq req) {
        try {
            registry.session(req.getSessionHandle().getSessionId());
            TGetInfoValue value = switch (req.getInfoType()) {
                case CLI_DBMS_NAME -> TGetInfoValue.stringValue(engine.productName());
                case CLI_DBMS_VER -> TGetInfoValue.stringValue(engine.productVersion());
                case CLI_SERVER_NAME -> TGetInfoValue.stringValue(engine.productName());
                case CLI_ODBC_KEYWORDS -> TGetInfoValue.stringValue(KEYWORDS);
                case CLI_MAX_COLUMN_NAME_LEN, CLI_MAX_SCHEMA_NAME_LEN, CLI_MAX_TABLE_NAME_LEN -> TGetInfoValue.lenValue(128);
                default -> throw new SqlException(SqlException.NOT_SUPPORTED, "GetInfo " + req.getInfoType() + " is not supported");
            };
            return new TGetInfoResp(Statuses.ok(), value);
        } catch (Exception e) {
            // infoValue is a required field even when there is nothing to report.
            return new TGetInfoResp(Statuses.error(e), TGetInfoValue.lenValue(0));
        }
    }

    @Override
    public TSetClientInfoResp SetClientInfo(TSetClientInfoReq req) {
        LOG.debug("Client info: {}", req.getConfiguration());
        return new TSetClientInfoResp(Statuses.ok());
    }

    // ---- statements

    @Override
    public TExecuteStatementResp ExecuteStatement(TExecuteStatementReq req) {
        TExecuteStatementResp resp = new TExecuteStatementResp(Statuses.ok());
        try {
            ServerSession session = registry.session(req.getSessionHandle().getSessionId());
            if (req.getConfOverlay() != null && !req.getConfOverlay().isEmpty()) {
                LOG.debug("Ignoring per-statement settings {}", req.getConfOverlay().keySet());
            }
            StatementOperation operation = new StatementOperation(session, req.getStatement());
            registry.add(operation); // registered first, so a cancel from elsewhere can find it
            if (req.isRunAsync()) {
                operation.start(statementExecutor, timer, req.getQueryTimeout());
            } else {
                operation.runHere(timer, req.getQueryTimeout());
                Operation.Status status = operation.status();
                if (status.state() != Operation.State.FINISHED) {
                    // A synchronous caller learns of failure from this response, so no handle is kept.
                    registry.closeOperation(operation);
                    throw status.error() != null ? status.error()
                            : new SqlException(SqlException.CANCELLED, "the statement was cancelled or timed out");
                }
            }
            // For a background run hasResultSet is not known yet: false here, GetOperationStatus tells.
            resp.setOperationHandle(operation.handle());
        } catch (Exception e) {
            resp.setStatus(Statuses.error(e));
        }
        return resp;
    }

    @Override
    public TGetOperationStatusResp GetOperationStatus(TGetOperationStatusReq req) {
        TGetOperationStatusResp resp = new TGetOperationStatusResp(Statuses.ok());
        try {
            Operation.Status status = registry.operation(req.getOperationHandle().getOperationId())
                    .awaitCompletion(POLL_WAIT_MILLIS);
            // The driver polls until it sees a final state, so the state is always set.
            resp.setOperationState(status.state().thrift);
            if (status.hasResultSet() != null) {
                resp.setHasResultSet(status.hasResultSet());
                resp.setNumModifiedRows(status.hasResultSet() ? -1 : status.updateCount());
            }
            resp.setOperationStarted(status.startedMillis());
            if (status.completedMillis() > 0) {
                resp.setOperationCompleted(status.completedMillis());
            }
            if (status.error() != null) {
                resp.setErrorMessage(status.error().getMessage());
                resp.setSqlState(status.error().sqlState());
                resp.setErrorCode(0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            resp.setStatus(Statuses.error(new SqlException(SqlException.GENERAL, "the server is shutting down")));
        } catch (Exception e) {
            resp.setStatus(Statuses.error(e));
        }
        return resp;
    }

    @Override
    public TGetResultSetMetadataResp GetResultSetMetadata(TGetResultSetMetadataReq req) {
        TGetResultSetMetadataResp resp = new TGetResultSetMetadataResp(Statuses.ok());
        try {
            List<WireColumn> columns = registry.operation(req.getOperationHandle().getOperationId()).schema();
            TTableSchema schema = new TTableSchema(new ArrayList<>());
            for (int i = 0; i < columns.size(); i++) {
                schema.addToColumns(columns.get(i).toThrift(i + 1));
            }
            resp.setSchema(schema);
        } catch (Exception e) {
            resp.setStatus(Statuses.error(e));
        }
        return resp;
    }

    @Override
    public TFetchResultsResp FetchResults(TFetchResultsReq req) {
        TFetchResultsResp resp = new TFetchResultsResp(Statuses.ok());
        // Always an (empty) row set and hasMoreRows=false at the end: the driver stops on an empty batch.
        resp.setHasMoreRows(false);
        try {
            if (req.getFetchType() == FETCH_TYPE_LOGS) {
                // No query logs: beeline reads until it gets an empty batch.
                Operation logged = registry.findOperation(req.getOperationHandle().getOperationId());
                TProtocolVersion protocol = logged == null ? ProtocolVersions.NEWEST : logged.session().protocol();
                resp.setResults(RowSetWriter.write(protocol, List.of(WireColumn.string("log")), List.of(), 0));
                return resp;
            }
            Operation operation = registry.operation(req.getOperationHandle().getOperationId());
            boolean fromStart = req.getOrientation() == TFetchOrientation.FETCH_FIRST;
            if (!fromStart && req.getOrientation() != TFetchOrientation.FETCH_NEXT) {
                throw new SqlException("HY106", "fetch orientation " + req.getOrientation() + " is not supported");
            }
            int maxRows = req.getMaxRows() <= 0 ? defaultFetchSize : (int) Math.min(req.getMaxRows(), HiveServer2Endpoint.MAX_FETCH_ROWS);
            List<WireColumn> columns = operation.schema();
            RowBatch batch = operation.fetch(fromStart, maxRows);
            resp.setResults(RowSetWriter.write(operation.session().protocol(), columns, batch.pieces(), batch.startOffset()));
        } catch (Exception e) {
            resp.setStatus(Statuses.error(e));
        }
        return resp;
    }

    @Override
    public TCancelOperationResp CancelOperation(TCancelOperationReq req) {
        try {
            Operation operation = registry.findOperation(req.getOperationHandle().getOperationId());
            if (operation != null) {
                operation.cancel();
            }
            return new TCancelOperationResp(Statuses.ok());
        } catch (Exception e) {
            return new TCancelOperationResp(Statuses.error(e));
        }
    }

    @Override
    public TCloseOperationResp CloseOperation(TCloseOperationReq req) {
        try {
            // Closing an unknown or already closed operation is fine: the driver closes liberally.
            Operation operation = registry.findOperation(req.getOperationHandle().getOperationId());
            if (operation != null) {
                registry.closeOperation(operation);
            }
            return new TCloseOperationResp(Statuses.ok());
        } catch (Exception e) {
            return new TCloseOperationResp(Statuses.error(e));
        }
    }

    @Override
    public TGetQueryIdResp GetQueryId(TGetQueryIdReq req) {
        // No status field in this response, and queryId is required: an empty id for unknown handles.
        try {
            Operation operation = registry.findOperation(req.getOperationHandle().getOperationId());
            return new TGetQueryIdResp(operation == null ? "" : operation.id().toString());
        } catch (Exception e) {
            return new TGetQueryIdResp("");
        }
    }

    // ---- metadata: finished when the call returns; the driver fetches without polling

    @Override
    public TGetCatalogsResp GetCatalogs(TGetCatalogsReq req) {
        TGetCatalogsResp resp = new TGetCatalogsResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_CATALOGS, catalog -> CatalogMetadata.catalogs(),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetSchemasResp GetSchemas(TGetSchemasReq req) {
        TGetSchemasResp resp = new TGetSchemasResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_SCHEMAS,
                catalog -> CatalogMetadata.schemas(catalog, req.getSchemaName()), resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetTablesResp GetTables(TGetTablesReq req) {
        TGetTablesResp resp = new TGetTablesResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_TABLES,
                catalog -> CatalogMetadata.tables(catalog, req.getSchemaName(), req.getTableName(), req.getTableTypes()),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetTableTypesResp GetTableTypes(TGetTableTypesReq req) {
        TGetTableTypesResp resp = new TGetTableTypesResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_TABLE_TYPES, catalog -> CatalogMetadata.tableTypes(),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetColumnsResp GetColumns(TGetColumnsReq req) {
        TGetColumnsResp resp = new TGetColumnsResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_COLUMNS,
                catalog -> CatalogMetadata.columns(catalog, req.getSchemaName(), req.getTableName(), req.getColumnName()),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetTypeInfoResp GetTypeInfo(TGetTypeInfoReq req) {
        TGetTypeInfoResp resp = new TGetTypeInfoResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_TYPE_INFO, catalog -> CatalogMetadata.typeInfo(),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetFunctionsResp GetFunctions(TGetFunctionsReq req) {
        TGetFunctionsResp resp = new TGetFunctionsResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.GET_FUNCTIONS, catalog -> CatalogMetadata.functions(),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetPrimaryKeysResp GetPrimaryKeys(TGetPrimaryKeysReq req) {
        TGetPrimaryKeysResp resp = new TGetPrimaryKeysResp(Statuses.ok());
        // The IDL has no operation type for keys; HS2 reports these as UNKNOWN too.
        metadata(req.getSessionHandle(), TOperationType.UNKNOWN,
                catalog -> CatalogMetadata.primaryKeys(catalog, req.getSchemaName(), req.getTableName()),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    @Override
    public TGetCrossReferenceResp GetCrossReference(TGetCrossReferenceReq req) {
        TGetCrossReferenceResp resp = new TGetCrossReferenceResp(Statuses.ok());
        metadata(req.getSessionHandle(), TOperationType.UNKNOWN, catalog -> CatalogMetadata.crossReference(catalog,
                        req.getParentSchemaName(), req.getParentTableName(), req.getForeignSchemaName(),
                        req.getForeignTableName()),
                resp::setStatus, resp::setOperationHandle);
        return resp;
    }

    private void metadata(TSessionHandle handle, TOperationType type, Function<Catalog, MetadataResult> query,
                          Consumer<TStatus> status, Consumer<TOperationHandle> operationHandle) {
        try {
            ServerSession session = registry.session(handle.getSessionId());
            MetadataResult result = query.apply(session.sql().catalog());
            Operation operation = Operation.finished(session, type, result.columns(), result.rows());
            registry.add(operation);
            operationHandle.accept(operation.handle());
        } catch (Exception e) {
            status.accept(Statuses.error(e));
        }
    }

    // ---- not supported: Kerberos delegation tokens and the 4.x data transfer calls

    @Override
    public TGetDelegationTokenResp GetDelegationToken(TGetDelegationTokenReq req) {
        return new TGetDelegationTokenResp(unsupported("GetDelegationToken"));
    }

    @Override
    public TCancelDelegationTokenResp CancelDelegationToken(TCancelDelegationTokenReq req) {
        return new TCancelDelegationTokenResp(unsupported("CancelDelegationToken"));
    }

    @Override
    public TRenewDelegationTokenResp RenewDelegationToken(TRenewDelegationTokenReq req) {
        return new TRenewDelegationTokenResp(unsupported("RenewDelegationToken"));
    }

    @Override
    public TUploadDataResp UploadData(TUploadDataReq req) {
        // operationHandle is required even in an error response.
        return new TUploadDataResp(unsupported("UploadData"), placeholderHandle());
    }

    @Override
    public TDownloadDataResp DownloadData(TDownloadDataReq req) {
        return new TDownloadDataResp(unsupported("DownloadData"), placeholderHandle());
    }

    private static TStatus unsupported(String what) {
        return Statuses.error(new SqlException(SqlException.NOT_SUPPORTED, what + " is not supported by this server"));
    }

    private static TOperationHandle placeholderHandle() {
        return new TOperationHandle(new THandleIdentifier(ByteBuffer.allocate(16), ByteBuffer.allocate(16)),
                TOperationType.UNKNOWN, false);
    }
}
