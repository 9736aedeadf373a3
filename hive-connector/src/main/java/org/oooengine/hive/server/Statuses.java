package org.oooengine.hive.server;

import org.apache.hive.service.rpc.thrift.TStatus;
import org.apache.hive.service.rpc.thrift.TStatusCode;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.oooengine.hive.engine.Faults;
import org.oooengine.core.sql.SqlException;

/** TStatus values, and the mapping of failures to SQLSTATE + message that clients show. */
final class Statuses {
    private static final Logger LOG = LogManager.getLogger(Statuses.class);

    private Statuses() {
    }

    /** Always plain SUCCESS: several driver checks reject SUCCESS_WITH_INFO. */
    static TStatus ok() {
        return new TStatus(TStatusCode.SUCCESS_STATUS);
    }

    static TStatus error(Throwable failure) {
        SqlException e = asSqlException(failure);
        TStatus status = new TStatus(TStatusCode.ERROR_STATUS);
        status.setSqlState(e.sqlState());
        status.setErrorMessage(e.getMessage());
        status.setErrorCode(0);
        return status;
    }

    /**
     * SqlExceptions are the engine's word to the user and pass unchanged. A fault of the cluster
     * gets its class's state ({@link Faults}); anything else is a bug or an environment failure:
     * HY000 with its message for the client, the stack trace for us.
     */
    static SqlException asSqlException(Throwable failure) {
        if (failure instanceof SqlException e) {
            return e;
        }
        SqlException e = Faults.of("", failure);
        if (SqlException.GENERAL.equals(e.sqlState())) {
            LOG.warn("Unexpected failure serving a HiveServer2 request", failure);
        }
        return e;
    }
}
