"""Python's HiveServer2 clients against an OoO Engine endpoint, as a user would run them.

PyHive (DB-API and its SQLAlchemy dialect, with pandas) and impyla connect without SASL and with
SASL PLAIN, run TPC-H Q1 and a selective join and compare them with DuckDB's answers (computed by
the caller into --expected), introspect tables and columns as Superset does, and see a syntax
error and a cancel as their own exceptions and states; PyHive also over the HTTP transport. Prints one line per check and exits 1 when
any failed.
"""
import argparse
import base64
import datetime
import decimal
import json
import sys
import threading
import time
import traceback

import pandas
import sqlalchemy
from impala import dbapi as impala_dbapi
from impala import error as impala_error
from pyhive import exc as pyhive_exc
from pyhive import hive
from TCLIService import ttypes
from thrift.transport import THttpClient

CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


def normal(value):
    """A cell as comparable: numbers (also written as text) as Decimal, dates as ISO text, text unpadded."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return decimal.Decimal(str(value))
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()[:10]
    try:
        return decimal.Decimal(value)
    except decimal.InvalidOperation:
        return str(value).rstrip()


def same_cell(got, want):
    """Numbers within a relative 1e-5: engines give averages different scales (Hive: the input's + 4)."""
    if isinstance(got, decimal.Decimal) and isinstance(want, decimal.Decimal):
        return abs(got - want) <= max(abs(want) * decimal.Decimal("1e-5"), decimal.Decimal("1e-6"))
    return got == want


def same_rows(actual, expected, what):
    got = [[normal(v) for v in row] for row in actual]
    want = [[normal(v) for v in row] for row in expected]
    if len(got) != len(want) or not all(len(g) == len(w) and all(map(same_cell, g, w)) for g, w in zip(got, want)):
        bad = next((i for i, (g, w) in enumerate(zip(got, want)) if not all(map(same_cell, g, w))), 0)
        raise AssertionError("%s: %d rows, DuckDB %d; row %d is %s, expected %s"
                             % (what, len(got), len(want), bad, got[bad:bad + 1], want[bad:bad + 1]))


def assert_raises(exception_types, function, contains):
    try:
        function()
    except exception_types as e:
        if contains not in str(e):
            raise AssertionError("expected '%s' in %s: %s" % (contains, type(e).__name__, e))
        return e
    raise AssertionError("no %s raised" % (exception_types,))


class Endpoint:
    def __init__(self, args):
        self.host, self.port, self.http_port = args.host, args.port, args.http_port
        self.user, self.password = args.user, args.password
        with open(args.expected) as f:
            self.expected = json.load(f)

    def pyhive(self, **kw):
        return hive.connect(host=self.host, port=self.port, **kw)

    def query(self, name):
        return self.expected[name]["sql"], self.expected[name]["rows"]


@check
def pyhive_nosasl_runs_q1_and_a_selective_join(ep):
    with ep.pyhive(auth="NOSASL", username="analyst") as conn:
        cursor = conn.cursor()
        for name in ("q1", "join"):
            sql, rows = ep.query(name)
            cursor.execute(sql)
            same_rows(cursor.fetchall(), rows, name)
        cursor.execute("select n_nationkey, n_name, r_name from nation join region on n_regionkey = r_regionkey "
                       "order by n_nationkey")
        types = [(d[0], d[1]) for d in cursor.description]
        assert types == [("n_nationkey", "BIGINT_TYPE"), ("n_name", "VARCHAR_TYPE"), ("r_name", "VARCHAR_TYPE")], types
        first = cursor.fetchmany(10)
        rest = cursor.fetchall()
        assert len(first) == 10 and len(rest) == 15, (len(first), len(rest))
        assert first[0] == (0, "ALGERIA", "AFRICA"), first[0]


@check
def pyhive_plain_checks_the_password(ep):
    with ep.pyhive(auth="CUSTOM", username=ep.user, password=ep.password) as conn:
        cursor = conn.cursor()
        cursor.execute("select count(*) from region")
        assert cursor.fetchone()[0] == 5
    # thrift_sasl reports the server's refusal as a transport error
    assert_raises(Exception, lambda: ep.pyhive(auth="CUSTOM", username=ep.user, password="wrong"), "")


@check
def impyla_nosasl_and_plain(ep):
    sql, rows = ep.query("q1")
    for mechanism, user, password in (("NOSASL", "analyst", None), ("PLAIN", ep.user, ep.password)):
        conn = impala_dbapi.connect(host=ep.host, port=ep.port, auth_mechanism=mechanism, user=user,
                                    password=password)
        try:
            cursor = conn.cursor()
            cursor.execute(sql)
            same_rows(cursor.fetchall(), rows, "q1 over impyla " + mechanism)
            names = [d[0] for d in cursor.description]
            assert names[:3] == ["l_returnflag", "l_linestatus", "sum_qty"], names
            assert cursor.description[2][1] == "DECIMAL", cursor.description[2]
        finally:
            conn.close()
    assert_raises(Exception, lambda: impala_dbapi.connect(host=ep.host, port=ep.port, auth_mechanism="PLAIN",
                                                          user=ep.user, password="wrong").cursor(), "")


@check
def sqlalchemy_introspects_like_superset(ep):
    engine = sqlalchemy.create_engine("hive://%s:%s@%s:%d/default" % (ep.user, ep.password, ep.host, ep.port),
                                      connect_args={"auth": "CUSTOM"})
    inspector = sqlalchemy.inspect(engine)
    assert "default" in inspector.get_schema_names()
    tables = inspector.get_table_names(schema="default")
    assert {"customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"} <= set(tables), tables
    columns = {c["name"]: c["type"] for c in inspector.get_columns("lineitem", schema="default")}
    assert list(columns)[:2] == ["l_orderkey", "l_partkey"], list(columns)
    kinds = [str(columns[c]) for c in ("l_orderkey", "l_extendedprice", "l_shipdate", "l_comment")]
    assert kinds == ["BIGINT", "DECIMAL", "DATE", "VARCHAR"], kinds
    assert inspector.has_table("nation") and not inspector.has_table("no_such_table")
    with engine.connect() as conn:
        nation = sqlalchemy.Table("nation", sqlalchemy.MetaData(), autoload_with=conn)
        names = conn.execute(sqlalchemy.select(nation.c.n_name).where(nation.c.n_regionkey == 0)
                             .order_by(nation.c.n_name)).scalars().all()
        assert names == ["ALGERIA", "ETHIOPIA", "KENYA", "MOROCCO", "MOZAMBIQUE"], names
    engine.dispose()


@check
def pandas_read_sql(ep):
    engine = sqlalchemy.create_engine("hive://analyst@%s:%d/default" % (ep.host, ep.port),
                                      connect_args={"auth": "NOSASL"})
    sql, rows = ep.query("regions")
    with engine.connect() as conn:
        frame = pandas.read_sql(sqlalchemy.text(sql), conn)
    assert list(frame.columns) == ["r_name", "nations", "balance"], list(frame.columns)
    same_rows(frame.itertuples(index=False, name=None), rows, "pandas.read_sql")
    with engine.connect() as conn:
        table = pandas.read_sql_table("region", conn)  # reflects the table, then selects it
    assert sorted(table["r_name"]) == ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"], table
    engine.dispose()


@check
def pyhive_over_http(ep):
    # PyHive speaks HTTP through Thrift's THttpClient; the login is a Basic header on every request.
    transport = THttpClient.THttpClient("http://%s:%d/cliservice" % (ep.host, ep.http_port))
    token = base64.b64encode(("%s:%s" % (ep.user, ep.password)).encode()).decode()
    transport.setCustomHeaders({"Authorization": "Basic " + token})
    with hive.connect(thrift_transport=transport) as conn:
        cursor = conn.cursor()
        sql, rows = ep.query("join")
        cursor.execute(sql)
        same_rows(cursor.fetchall(), rows, "join over HTTP")
    refused = THttpClient.THttpClient("http://%s:%d/cliservice" % (ep.host, ep.http_port))
    refused.setCustomHeaders({"Authorization": "Basic " + base64.b64encode(b"nobody:wrong").decode()})
    # THttpClient reads the 401's body as a Thrift answer, so its error says nothing of the status
    assert_raises(Exception, lambda: hive.connect(thrift_transport=refused), "")


@check
def a_syntax_error_is_the_clients_exception_with_its_position(ep):
    with ep.pyhive(auth="NOSASL") as conn:
        e = assert_raises(pyhive_exc.OperationalError, lambda: conn.cursor().execute("selec 1 from nation"), "line 1:0")
        assert "42000" in str(e), e
    conn = impala_dbapi.connect(host=ep.host, port=ep.port, auth_mechanism="NOSASL")
    try:
        assert_raises(impala_error.Error, lambda: conn.cursor().execute("select n_name from nation wher 1 = 1"),
                      "line 1:")
    finally:
        conn.close()


@check
def a_cancel_stops_a_long_query(ep):
    with ep.pyhive(auth="NOSASL") as conn:
        cursor = conn.cursor()
        # every pair of lineitem rows: minutes of work
        cursor.execute("select count(*) from lineitem a, lineitem b where a.l_orderkey + b.l_orderkey < 0",
                       async_=True)
        time.sleep(1.0)
        state = cursor.poll().operationState
        assert state in (ttypes.TOperationState.RUNNING_STATE, ttypes.TOperationState.PENDING_STATE), state
        started = time.time()
        cursor.cancel()
        while cursor.poll().operationState not in (ttypes.TOperationState.CANCELED_STATE,
                                                    ttypes.TOperationState.ERROR_STATE):
            assert time.time() - started < 10, "not cancelled within 10 s"
            time.sleep(0.1)
        assert cursor.poll().operationState == ttypes.TOperationState.CANCELED_STATE
        other = conn.cursor()
        other.execute("select count(*) from nation")
        assert other.fetchone()[0] == 25


@check
def every_protocol_version_connects(ep):
    # PyHive asks for V6; an older client gets its row-based results.
    for version in (ttypes.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V1, ttypes.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V5):
        with ep.pyhive(auth="NOSASL") as conn:
            session = conn.client.OpenSession(ttypes.TOpenSessionReq(client_protocol=version))
            assert session.serverProtocolVersion == version, session.serverProtocolVersion
            op = conn.client.ExecuteStatement(ttypes.TExecuteStatementReq(
                sessionHandle=session.sessionHandle, statement="select r_regionkey, r_name from region order by r_regionkey",
                runAsync=False)).operationHandle
            rows = conn.client.FetchResults(ttypes.TFetchResultsReq(
                operationHandle=op, orientation=ttypes.TFetchOrientation.FETCH_NEXT, maxRows=10)).results.rows
            cells = [(r.colVals[0].i64Val.value, r.colVals[1].stringVal.value) for r in rows]
            assert cells[:2] == [(0, "AFRICA"), (1, "AMERICA")], cells
            conn.client.CloseSession(ttypes.TCloseSessionReq(sessionHandle=session.sessionHandle))
    with ep.pyhive(auth="NOSASL") as conn:
        # V11, which PyHive's copy of the service definition does not name
        newer = conn.client.OpenSession(ttypes.TOpenSessionReq(
            client_protocol=ttypes.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10 + 1))
        assert newer.serverProtocolVersion == ttypes.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10
        conn.client.CloseSession(ttypes.TCloseSessionReq(sessionHandle=newer.sessionHandle))
    # a version no Hive release has: refused with a Thrift error, never answered with a guess
    conn = ep.pyhive(auth="NOSASL")
    assert_raises(Exception, lambda: conn.client.OpenSession(ttypes.TOpenSessionReq(client_protocol=99)),
                  "client_protocol")
    try:
        conn.close()
    except Exception:
        pass  # the server dropped the connection that sent it


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True, help="the endpoint's HTTP transport")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--expected", required=True, help="JSON: name -> {sql, rows} with DuckDB's rows")
    args = parser.parse_args()
    endpoint = Endpoint(args)
    passed = failed = 0
    for function in CHECKS:
        started = time.time()
        try:
            function(endpoint)
            passed += 1
            print("PASS %s (%.1f s)" % (function.__name__, time.time() - started), flush=True)
        except Exception:
            failed += 1
            print("FAIL %s\n%s" % (function.__name__, traceback.format_exc()), flush=True)
    print("hive-clients: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
