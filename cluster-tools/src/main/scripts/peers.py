"""What tpch_peers.py and tpcds_peers.py share: running the queries on DuckDB and Spark SQL over the
same Parquet files, each run within a time limit, comparing answers with DuckDB's, describing the
machine, and the command line both take. Each of them describes its benchmark in a Benchmark."""
import argparse
import datetime
import decimal
import json
import math
import os
import platform
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

PROGRAM = ["peers"]

# What --warm-engine adds to the document's note.
WARM_NOTE = ("The engine ran the queries once, untimed, before its timed run (over its own tables, and again over the "
             "files before the run over the files): its nodes' JIT compiler had done its work, as on a cluster that "
             "has been serving them.")


def log(msg):
    print(f"{PROGRAM[0]}: {msg}", file=sys.stderr, flush=True)


def median(xs):
    """The upper median, as ooo bench tpch takes it (one slow run never moves it)."""
    return sorted(xs)[len(xs) // 2]


class Benchmark:
    """One benchmark's tables, queries, engine run and document; the subclasses fill it in."""
    name = ""             # tpch, tpcds: the program's name and the default --name
    title = ""            # TPC-H, TPC-DS
    query_numbers = []    # every query's number
    default_timeout = 0   # seconds a run of a query may take, 0 for no limit
    # query -> [(pattern, replacement, why)], applied with re.sub to the text of docs/queries/<name>.
    duckdb_rewrites = {}
    spark_rewrites = {}
    spark_conf = {}       # Spark settings besides the master and the driver's memory

    def __init__(self, queries_dir: Path):
        self.queries_dir = queries_dir

    def text(self, q):
        return (self.queries_dir / f"{q}.sql").read_text().strip().rstrip(";")

    def duckdb_text(self, q):
        return rewrite(self.text(q), self.duckdb_rewrites.get(q, []))

    def spark_text(self, q):
        return rewrite(self.text(q), self.spark_rewrites.get(q, []))

    def parquet_files(self, data_dir: Path):
        """table -> its Parquet file under data_dir."""
        raise NotImplementedError

    def generator(self):
        """What made the data, for the document."""
        raise NotImplementedError

    def run_engine_files(self, a, queries, files):
        """The engine over the Parquet files themselves, as external tables: (figures, answers)."""
        raise NotImplementedError(f"{self.name}: the engine over the Parquet files is not measured")

    def run_engine(self, a, queries, timeout):
        """The engine's figures, as bench() gives them, and its answers (query -> rows) or its checks
        against DuckDB (query -> the check's text)."""
        raise NotImplementedError

    def render(self, doc, queries, out: Path, name):
        """The plot and the document of a run; returns the engines that ran."""
        raise NotImplementedError

    def failed(self, doc):
        """Whether the run should end with exit code 1."""
        return "engine_error" in doc or any(r.get("status", "ok") != "ok" or "error" in r
                                            for f in doc["engines"].values() for r in f["queries"]) or any(
            v != SAME for c in doc["checks"].values() for v in c.values())


def rewrite(sql, rules):
    for (pattern, replacement, _why) in rules:
        changed = re.sub(pattern, replacement, sql)
        if changed == sql:
            raise ValueError(f"the rewrite {pattern!r} no longer applies: update the rewrites to the query's text")
        sql = changed
    return sql


# ---------------------------------------------------------------- running

class TimedOut(Exception):
    pass


def within(seconds, run, cancel):
    """run(), cancelled with cancel() once it has taken `seconds` (and again every 2 s until it returns:
    a Spark query starts new jobs after one is cancelled); raises TimedOut then. 0: no limit."""
    if not seconds:
        return run()
    done, fired = threading.Event(), threading.Event()

    def watch():
        if done.wait(seconds):
            return
        fired.set()
        while True:
            try:
                cancel()
            except Exception as e:  # the run may be ending as it is cancelled
                log(f"cancelling: {e}")
            if done.wait(2):
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        result = run()
    except Exception:
        if fired.is_set():
            raise TimedOut(f"still running after {seconds:g} s: cancelled")
        raise
    finally:
        done.set()
        watcher.join()
    if fired.is_set():
        raise TimedOut(f"took over {seconds:g} s")
    return result


def bench(name, run_query, cancel, queries, repeat, timeout):
    """Each query once to warm up (its rows kept as the answer), then `repeat` timed runs, each within
    `timeout` seconds; a query that fails or times out is reported and the others still run."""
    out, answers = [], {}
    for q in queries:
        try:
            rows = within(timeout, lambda: run_query(q), cancel)
            answers[q] = rows
            runs = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                n = len(within(timeout, lambda: run_query(q), cancel))
                runs.append(time.perf_counter() - t0)
                if n != len(rows):
                    raise RuntimeError(f"a timed run returned {n} rows, the warm-up {len(rows)}")
            r = {"query": q, "status": "ok", "median_s": round(median(runs), 4), "runs_s": [round(x, 4) for x in runs],
                 "rows": len(rows)}
            log(f"{name} {q}: {r['median_s']} s, {len(rows)} rows")
        except TimedOut as e:
            r = {"query": q, "status": "timeout", "error": str(e)}
            log(f"{name} {q}: timeout: {e}")
        except Exception as e:  # reported, the other queries still run
            r = {"query": q, "status": "failed", "error": first_line(e)}
            log(f"{name} {q}: failed: {r['error']}")
        out.append(r)
    total = round(sum(r["median_s"] for r in out if "median_s" in r), 3)
    return {"queries": out, "total_s": total}, answers


def first_line(e):
    lines = [line for line in str(e).splitlines() if line.strip()]
    return (lines[0] if lines else type(e).__name__)[:500]


def run_duckdb(files, text, queries, repeat, threads, timeout, memory=None, spill_dir=None):
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    if memory:  # beside a cluster on one machine: what is over the limit goes to spill_dir, not to the OOM killer
        con.execute(f"SET memory_limit='{memory}'")
        con.execute(f"SET temp_directory='{spill_dir}'")
    # Loaded into DuckDB's own tables, as the engine queries its own store.
    for t, f in files.items():
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM '{f}'")
    result = bench("duckdb", lambda q: con.execute(text(q)).fetchall(), con.interrupt, queries, repeat, timeout)
    result[0]["version"] = duckdb.__version__
    result[0]["settings"] = {"threads": threads, "storage": "in-memory tables loaded from the Parquet files"}
    if memory:
        result[0]["settings"]["memory_limit"] = memory
    return result


def duckdb_setup(doc):
    """How DuckDB was set up, for the document: its threads and, where given, its memory limit."""
    limit = doc["engines"].get("duckdb", {}).get("settings", {}).get("memory_limit")
    return "`SET threads=2`" + (f", `SET memory_limit='{limit}'` (spilling to disk beyond it)" if limit else "")


def run_spark(files, text, queries, repeat, master, driver_memory, conf, timeout):
    from pyspark.sql import SparkSession
    from py4j.protocol import Py4JNetworkError
    import pyspark
    builder = (SparkSession.builder.master(master).appName(PROGRAM[0])
               .config("spark.driver.memory", driver_memory)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    for k, v in conf.items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # A cancelled job's tasks are interrupted too, not left to run to their end beside the next query.
    spark.sparkContext.setLocalProperty("spark.job.interruptOnCancel", "true")
    gone = []

    def run(q):
        if gone:
            raise RuntimeError(gone[0])
        try:
            return [tuple(r) for r in spark.sql(text(q)).collect()]
        except (Py4JNetworkError, ConnectionError) as e:
            # Its JVM ended (the kernel's OOM killer, say): the other queries fail at once.
            gone.append(f"Spark's JVM is gone ({first_line(e)}); was it killed (dmesg)?")
            raise RuntimeError(gone[0])

    try:
        for t, f in files.items():
            spark.read.parquet(str(f)).createOrReplaceTempView(t)
        result = bench("spark", run, spark.sparkContext.cancelAllJobs, queries, repeat, timeout)
        result[0]["version"] = pyspark.__version__
        result[0]["settings"] = {"master": master, "spark.driver.memory": driver_memory, **conf,
                                 "storage": "temporary views over the Parquet files",
                                 "other settings": "defaults"}
        return result
    finally:
        try:
            spark.stop()
        except Exception as e:  # a JVM that is gone cannot be stopped; the figures are kept
            log(f"stopping Spark: {first_line(e)}")


# ---------------------------------------------------------------- answers

SAME = "same rows as DuckDB"
NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        f = float(v)
        return None if math.isnan(f) else f  # DuckDB's 0/0 is NaN, Hive's and Spark's NULL
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat()[:10]
    s = str(v)
    return float(s) if NUMBER.fullmatch(s) else s.rstrip()


def same_value(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.011)
    return a == b


def same_rows(xs, ys):
    return len(xs) == len(ys) and all(len(x) == len(y) and all(map(same_value, x, y)) for x, y in zip(xs, ys))


def difference(ours, expected):
    """None when the answers agree (in order, or else as sorted lists: ties may order differently)."""
    a = [tuple(norm(v) for v in r) for r in ours]
    b = [tuple(norm(v) for v in r) for r in expected]
    if len(a) != len(b):
        return f"{len(a)} rows, DuckDB {len(b)}"
    if same_rows(a, b):
        return None
    key = lambda r: tuple((0, 0.0) if v is None else (1, round(v, 2)) if isinstance(v, float) else (2, str(v))
                          for v in r)
    if same_rows(sorted(a, key=key), sorted(b, key=key)):
        return None
    for x, y in zip(sorted(a, key=key), sorted(b, key=key)):
        if not (len(x) == len(y) and all(map(same_value, x, y))):
            return f"first differing row: {x} against DuckDB's {y}"
    return "rows differ"


def check(answers, queries):
    """Every engine's rows against DuckDB's: counts and values."""
    checks = {}
    reference = answers.get("duckdb", {})
    for engine, per_query in answers.items():
        if engine == "duckdb":
            continue
        checks[engine] = {}
        for q in queries:
            if q not in per_query or q not in reference:
                checks[engine][q] = "not compared: a run failed"
                continue
            d = difference(per_query[q], reference[q])
            checks[engine][q] = SAME if d is None else d
    return checks


# ---------------------------------------------------------------- machine and figures

def machine():
    mem = next((l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")), "")
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"cores": os.cpu_count(), "cpu": cpu,
            "ram_gib": round(int(mem.split()[1]) / 2**20, 1) if mem else None,
            "jdk": java[0] if java else None, "python": platform.python_version(),
            "os": platform.platform(), "load_average_at_start": os.getloadavg()}


LABELS = {"ooo": "OoO Engine", "ooo-files": "OoO Engine over the Parquet files", "ooo-jdbc": "OoO Engine through Hive JDBC", "spark": "Spark SQL local[2]",
          "duckdb": "DuckDB 2 threads"}


def fmt(x):
    """Three significant digits: more would be the machine's noise."""
    return "-" if x is None else (f"{x:.0f}" if x >= 100 else f"{x:.3g}")


def ratio(a, b):
    if not a or not b:
        return "-"
    r = a / b
    return f"{r:.2g}x" if r < 0.1 else f"{r:.1f}x" if r < 100 else f"{r:.0f}x"


def bars(ax, figures, engines, queries, labels):
    """Per query, one bar per engine (log scale); a query an engine did not answer has none."""
    width = 0.8 / len(engines)
    for i, e in enumerate(engines):
        by_q = {r["query"]: r.get("median_s") for r in figures[e]["queries"]}
        xs = [j + (i - (len(engines) - 1) / 2) * width for j in range(len(queries))]
        ax.bar(xs, [by_q.get(q) or 0 for q in queries], width, label=labels[e])
    ax.set_yscale("log")
    ax.set_xlim(-0.6, len(queries) - 0.4)
    ax.set_ylabel("seconds (median, log scale)")
    ax.grid(axis="y", which="both", alpha=0.3)


# ---------------------------------------------------------------- command line

def main(benchmark_class):
    b = benchmark_class
    PROGRAM[0] = f"{b.name}-peers"
    ap = argparse.ArgumentParser(description=sys.modules[b.__module__].__doc__)
    ap.add_argument("--render", type=Path, help="only write the plot and document again from this JSON of a run")
    ap.add_argument("--other-runs", type=Path, nargs="*", default=[],
                    help="with --render: JSONs of other runs whose totals the document lists too")
    ap.add_argument("--sf")
    ap.add_argument("--data", type=Path, help="the directory the data generator wrote")
    ap.add_argument("--queries-dir", type=Path)
    ap.add_argument("--queries", default=",".join(str(i) for i in b.query_numbers))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=b.default_timeout,
                    help="seconds a run of a query may take before it is cancelled and reported (0: no limit)")
    ap.add_argument("--engines", default="duckdb,spark,ooo")
    ap.add_argument("--cluster", type=Path, help="a running cluster loaded at the same SF (for the engine)")
    ap.add_argument("--ooo", default="ooo")
    ap.add_argument("--duckdb-file", type=Path, help="DuckDB's database of the rows, for ooo bench tpcds --duckdb")
    ap.add_argument("--spark-master", default="local[2]")
    ap.add_argument("--spark-driver-memory", default="4g")
    ap.add_argument("--duckdb-memory", help="DuckDB's memory_limit (e.g. 8GB; default: DuckDB's, 80%% of RAM); "
                                            "beyond it DuckDB spills to a directory beside the data")
    ap.add_argument("--out", type=Path, required=True, help="directory for <name>.json, <name>.png, <name>.md")
    ap.add_argument("--name", default=b.name)
    ap.add_argument("--note", default="", help="a sentence for the document, e.g. what else ran on the machine")
    ap.add_argument("--warm-engine", action="store_true",
                    help="run the queries on the engine once, untimed, before its timed run: its nodes' JIT compiler done, "
                         "as on a cluster that has been serving them")
    ap.add_argument("--command", action="append", default=[], help="a command line to list in the document")
    a = ap.parse_args()
    if a.duckdb_memory and not re.fullmatch(r"[0-9]+(\.[0-9]+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)", a.duckdb_memory):
        ap.error(f"--duckdb-memory: '{a.duckdb_memory}' is not a size such as 8GB or 512MiB")
    bm = benchmark_class(a.queries_dir)

    if a.render:
        doc = json.loads(a.render.read_text())
        if a.other_runs:
            doc["other_runs"] = [dict(json.loads(f.read_text()), file=f.name) for f in a.other_runs]
        bm.render(doc, [r["query"] for r in next(iter(doc["engines"].values()))["queries"]], a.out, a.name)
        return 0
    if not (a.sf and a.data and a.queries_dir):
        ap.error("give --sf, --data and --queries-dir (or --render)")
    queries = [f"q{int(x.strip().lower().lstrip('q')):02d}" for x in a.queries.split(",")]
    engines = a.engines.split(",")
    if any(e in engines for e in ("ooo", "ooo-files", "ooo-jdbc")) and a.cluster is None:
        ap.error("the engine ('ooo', 'ooo-files' or 'ooo-jdbc' in --engines) needs --cluster")
    if "ooo-jdbc" in engines and not hasattr(bm, "run_engine_jdbc"):
        ap.error(f"'ooo-jdbc' in --engines: {b.name} does not run through JDBC")
    for q in queries:  # a stale rewrite stops the run here rather than after the data and DuckDB
        bm.duckdb_text(q)
        bm.spark_text(q)
    sf = float(a.sf)
    doc = {"sf": int(sf) if sf.is_integer() else sf, "repeat": a.repeat, "timeout_s": a.timeout, "machine": machine(),
           "engines": {}, "note": " ".join(filter(None, [a.note, WARM_NOTE if a.warm_engine else ""])), "commands": a.command,
           "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    git = subprocess.run(["git", "-C", str(a.queries_dir), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    doc["commit"] = git.stdout.strip() or None
    files = bm.parquet_files(a.data)
    import duckdb
    con = duckdb.connect()
    doc["data"] = {"rows": {t: con.execute(f"SELECT count(*) FROM '{f}'").fetchone()[0] for t, f in files.items()},
                   "parquet_mib": sum(f.stat().st_size for f in files.values()) / 2**20,
                   "generator": bm.generator()}
    con.close()
    answers, engine_checks = {}, None
    if "duckdb" in engines:
        doc["engines"]["duckdb"], answers["duckdb"] = run_duckdb(files, bm.duckdb_text, queries, a.repeat, 2, a.timeout,
                                                                  a.duckdb_memory, a.data / "duckdb-spill")
    if "spark" in engines:
        doc["engines"]["spark"], answers["spark"] = run_spark(files, bm.spark_text, queries, a.repeat, a.spark_master,
                                                              a.spark_driver_memory, bm.spark_conf, a.timeout)
    if "ooo" in engines:
        try:
            if a.warm_engine:
                log("engine: a pass over the queries first, not timed")
                bm.run_engine(a, queries, a.timeout)
            doc["engines"]["ooo"], ooo_answers, engine_checks = bm.run_engine(a, queries, a.timeout)
            if ooo_answers is not None:
                answers["ooo"] = ooo_answers
        except Exception as e:  # the peers' figures are still written
            doc["engine_error"] = str(e)
            log(f"engine: {e}")
    if "ooo-files" in engines:
        try:
            if a.warm_engine:  # reading the files compiles code of its own
                log("engine over the files: a pass over the queries first, not timed")
                bm.run_engine_files(a, queries, files)
            doc["engines"]["ooo-files"], answers["ooo-files"] = bm.run_engine_files(a, queries, files)
        except Exception as e:  # the others' figures are still written
            doc["engine_files_error"] = str(e)
            log(f"engine over the files: {e}")
    if "ooo-jdbc" in engines:
        try:
            doc["engines"]["ooo-jdbc"], answers["ooo-jdbc"] = bm.run_engine_jdbc(a, queries)
        except Exception as e:  # the others' figures are still written
            doc["engine_jdbc_error"] = str(e)
            log(f"engine through JDBC: {e}")
    doc["checks"] = check(answers, queries)
    if engine_checks is not None:
        doc["checks"]["ooo"] = engine_checks
    doc["machine"]["load_average_at_end"] = os.getloadavg()
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / f"{a.name}.json").write_text(json.dumps(doc, indent=2) + "\n")
    ran = bm.render(doc, queries, a.out, a.name)
    log(f"wrote {a.out / (a.name + '.md')}, .json and .png")
    for e in ran:
        log(f"{e}: total {doc['engines'][e]['total_s']} s")
    return 1 if bm.failed(doc) else 0
