package org.oooengine.cluster.bench.tpcds;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;

/**
 * One query's outcome; its JSON form is an element of {@code ooo bench tpcds --json}'s {@code queries}.
 *
 * @param status     what the engine did with the query
 * @param sqlState   the SQLSTATE of a refused query
 * @param error      why a query was refused, failed or timed out
 * @param difference how a wrong answer differs from DuckDB's
 * @param rows       rows the engine returned (ok or wrong)
 * @param medianS    the median of the engine's timed runs (ok or wrong)
 * @param runsS      every timed run of the engine
 * @param duckdbS    the median of DuckDB's timed runs over the same data
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TpcdsQueryResult(String query, Status status, String sqlState, String error, String difference, Long rows,
                               Double medianS, List<Double> runsS, Double duckdbS) {

    /** What the engine did with a query. */
    public enum Status {
        /** DuckDB's answer. */
        OK,
        /** An answer that is not DuckDB's. */
        WRONG,
        /** Refused with an SQL error (a SQLSTATE and a message), e.g. "not supported yet: ...". */
        REFUSED,
        /** Still running at the time limit: cancelled. */
        TIMEOUT,
        /** Failed otherwise: an internal error, or DuckDB could not run the query. */
        FAILED;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What a refusal or failure is grouped under in the totals: its SQLSTATE and message without
     * the position ("at line L:C") that differs between queries.
     */
    @JsonIgnore
    public String cause() {
        String message = error == null ? "" : error.replaceAll(" at line \\d+:\\d+", "").strip();
        int newline = message.indexOf('\n');
        if (newline > 0) {
            message = message.substring(0, newline);
        }
        return switch (status) {
            case REFUSED -> sqlState + " " + message;
            case TIMEOUT -> "timeout";
            case FAILED -> message;
            default -> "";
        };
    }
}
