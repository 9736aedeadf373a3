"""TPC-H on the engine, Spark SQL and DuckDB on the same data and machine; see tpch-peers.sh."""
import argparse
import datetime
import decimal
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TABLES = ["region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]
QUERIES = [f"q{i:02d}" for i in range(1, 23)]
PEERS = ["duckdb", "spark"]


def log(msg):
    print(f"tpch-peers: {msg}", file=sys.stderr, flush=True)


def median(xs):
    """The upper median, as ooo bench tpch takes it (one slow run never moves it)."""
    return sorted(xs)[len(xs) // 2]


# ---------------------------------------------------------------- data

def parquet_files(data_dir: Path):
    """The .tbl files TpchData.java wrote, converted once to Parquet (typed as the engine types them)."""
    pq = data_dir / "parquet"
    pq.mkdir(exist_ok=True)
    import duckdb
    con = duckdb.connect()
    con.execute("SET threads=2")
    for t in TABLES:
        target = pq / f"{t}.parquet"
        if target.exists():
            continue
        cols = [line.split("\t") for line in (data_dir / f"{t}.columns").read_text().splitlines() if line]
        spec = "{" + ", ".join(f"'{n}': '{ty}'" for n, ty in cols) + "}"
        log(f"Parquet: {t}")
        tmp = pq / f"{t}.parquet.tmp"
        con.execute(f"COPY (SELECT * FROM read_csv('{data_dir / (t + '.tbl')}', delim='|', header=false, quote='', "
                    f"escape='', columns={spec})) TO '{tmp}' (FORMAT parquet)")
        tmp.rename(target)
    con.close()
    return {t: pq / f"{t}.parquet" for t in TABLES}


def row_counts(files):
    import duckdb
    con = duckdb.connect()
    return {t: con.execute(f"SELECT count(*) FROM '{f}'").fetchone()[0] for t, f in files.items()}


# ---------------------------------------------------------------- queries

def query_text(queries_dir: Path, q: str) -> str:
    return (queries_dir / f"{q}.sql").read_text().strip().rstrip(";")


# Where DuckDB's dialect differs from Hive's: query -> [(pattern, replacement, why)], applied
# with re.sub. Every query not named here runs as written in docs/queries/tpch.
DUCKDB_REWRITES = {}


def duckdb_text(queries_dir, q):
    sql = query_text(queries_dir, q)
    for (pattern, replacement, _why) in DUCKDB_REWRITES.get(q, []):
        sql = re.sub(pattern, replacement, sql)
    return sql


def timed(run, repeat):
    """Warm-up (its rows kept), then `repeat` timed runs."""
    rows = run()
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        n = len(run())
        runs.append(time.perf_counter() - t0)
        if n != len(rows):
            raise RuntimeError(f"a timed run returned {n} rows, the warm-up {len(rows)}")
    return rows, runs


def bench(name, run_query, queries, repeat):
    out, answers = [], {}
    for q in queries:
        try:
            rows, runs = timed(lambda: run_query(q), repeat)
            answers[q] = rows
            r = {"query": q, "median_s": round(median(runs), 4), "runs_s": [round(x, 4) for x in runs], "rows": len(rows)}
            log(f"{name} {q}: {r['median_s']} s, {len(rows)} rows")
        except Exception as e:  # reported, the other queries still run
            r = {"query": q, "error": str(e).splitlines()[0][:500]}
            log(f"{name} {q}: failed: {r['error']}")
        out.append(r)
    total = round(sum(r["median_s"] for r in out if "median_s" in r), 3)
    return {"queries": out, "total_s": total}, answers


def run_duckdb(files, queries_dir, queries, repeat, threads):
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads={threads}")
    # Loaded into DuckDB's own tables, as the engine queries its own store.
    for t, f in files.items():
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM '{f}'")
    result = bench("duckdb", lambda q: con.execute(duckdb_text(queries_dir, q)).fetchall(), queries, repeat)
    result[0]["version"] = duckdb.__version__
    result[0]["settings"] = {"threads": threads, "storage": "in-memory tables loaded from the Parquet files"}
    return result


def run_spark(files, queries_dir, queries, repeat, master, driver_memory):
    from pyspark.sql import SparkSession
    import pyspark
    spark = (SparkSession.builder.master(master).appName("tpch-peers")
             .config("spark.driver.memory", driver_memory)
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for t, f in files.items():
            spark.read.parquet(str(f)).createOrReplaceTempView(t)
        result = bench("spark", lambda q: [tuple(r) for r in spark.sql(query_text(queries_dir, q)).collect()],
                       queries, repeat)
        result[0]["version"] = pyspark.__version__
        result[0]["settings"] = {"master": master, "spark.driver.memory": driver_memory,
                                 "storage": "temporary views over the Parquet files", "other settings": "defaults"}
        return result
    finally:
        spark.stop()


def run_engine(ooo, cluster, queries, repeat, results_dir):
    numbers = ",".join(str(int(q[1:])) for q in queries)
    cmd = [ooo, "bench", "tpch", "--cluster", str(cluster), "--queries", numbers, "--repeat", str(repeat), "--json",
           "--results", str(results_dir)]
    log("engine: " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)  # progress passes through on stderr
    if not p.stdout.strip():
        raise RuntimeError(f"ooo bench tpch printed nothing (exit {p.returncode})")
    report = json.loads(p.stdout)
    answers = {}
    for q in queries:
        f = results_dir / f"{q}.tsv"
        if f.exists():
            answers[q] = [tuple(None if v == "NULL" else v for v in line.split("\t"))
                          for line in f.read_text().split("\n") if line != ""]
    return report, answers


# ---------------------------------------------------------------- answers

NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def norm(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float, decimal.Decimal)):
        return float(v)
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
    key = lambda r: tuple((0, round(v, 2)) if isinstance(v, float) else (1, str(v)) for v in r)
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
            checks[engine][q] = "same rows as DuckDB" if d is None else d
    return checks


# ---------------------------------------------------------------- machine

def machine():
    mem = next((l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")), "")
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {"cores": os.cpu_count(), "cpu": cpu,
            "ram_gib": round(int(mem.split()[1]) / 2**20, 1) if mem else None,
            "jdk": java[0] if java else None, "python": platform.python_version(),
            "os": platform.platform(), "load_average_at_start": os.getloadavg()}


# ---------------------------------------------------------------- report

def plot(figures, engines, queries, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = {"ooo": "OoO Engine (4 nodes)", "spark": "Spark SQL local[2]", "duckdb": "DuckDB 2 threads"}
    width = 0.8 / len(engines)
    fig, ax = plt.subplots(figsize=(14, 5))
    for i, e in enumerate(engines):
        by_q = {r["query"]: r.get("median_s") for r in figures[e]["queries"]}
        xs = [j + (i - (len(engines) - 1) / 2) * width for j in range(len(queries))]
        ax.bar(xs, [by_q.get(q) or 0 for q in queries], width, label=f"{labels[e]}: total {figures[e]['total_s']:.2f} s")
    ax.set_yscale("log")
    ax.set_xticks(range(len(queries)))
    ax.set_xticklabels([q.upper() for q in queries])
    ax.set_ylabel("seconds (median, log scale)")
    ax.set_title("TPC-H per query, same machine and data")
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def fmt(x):
    """Three significant digits: more would be the machine's noise."""
    return "-" if x is None else (f"{x:.0f}" if x >= 100 else f"{x:.3g}")


def ratio(a, b):
    return "-" if not a or not b else (f"{a / b:.1f}x" if a / b < 100 else f"{a / b:.0f}x")


def markdown(doc, queries):
    engines = [e for e in ("ooo", "spark", "duckdb") if e in doc["engines"]]
    by = {e: {r["query"]: r for r in doc["engines"][e]["queries"]} for e in engines}
    head = {"ooo": "engine s", "spark": "Spark s", "duckdb": "DuckDB s"}
    cols = [head[e] for e in engines] + ["rows"]
    if "ooo" in engines:
        cols += [f"engine/{'Spark' if e == 'spark' else 'DuckDB'}" for e in engines if e != "ooo"]
    spilled = "ooo" in engines and any(r.get("spilled_bytes", 0) > 0 for r in doc["engines"]["ooo"]["queries"])
    if spilled:
        cols.append("engine spilled MiB")
    lines = ["| query | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for q in queries:
        med = {e: by[e].get(q, {}).get("median_s") for e in engines}
        rows = next((by[e][q]["rows"] for e in engines if "rows" in by[e].get(q, {})), None)
        cells = [fmt(med[e]) for e in engines] + [f"{rows:,}" if rows is not None else "-"]
        if "ooo" in engines:
            cells += [ratio(med["ooo"], med[e]) for e in engines if e != "ooo"]
        if spilled:
            cells.append(f"{by['ooo'].get(q, {}).get('spilled_bytes', 0) / 2**20:,.1f}")
        lines.append(f"| {q.upper()} | " + " | ".join(cells) + " |")
    totals = {e: doc["engines"][e]["total_s"] for e in engines}
    cells = [f"**{fmt(totals[e])}**" for e in engines] + [""]
    if "ooo" in engines:
        cells += [f"**{ratio(totals['ooo'], totals[e])}**" for e in engines if e != "ooo"]
    if spilled:
        cells.append(f"**{sum(r.get('spilled_bytes', 0) for r in doc['engines']['ooo']['queries']) / 2**20:,.1f}**")
    lines.append("| **total** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(doc):
    """The engine against its targets at SF 1 on 4 nodes: at most half Spark's total, no query over 3 s."""
    e = doc["engines"]
    if "ooo" not in e or "spark" not in e:
        return ""
    slow = [f"{r['query'].upper()} {fmt(r['median_s'])} s" for r in e["ooo"]["queries"] if r.get("median_s", 0) > 3]
    failed = [r["query"].upper() for r in e["ooo"]["queries"] if "error" in r]
    ratio_spark = e["ooo"]["total_s"] / e["spark"]["total_s"]
    text = (f"\nThe engine's total is {ratio_spark:.2f}x Spark SQL's (target: at most 0.5x) and "
            + (f"{len(slow)} of its queries take over 3 s (target: none): {', '.join(slow)}." if slow
               else "none of its queries takes over 3 s (target: none).")
            + (f" Failed: {', '.join(failed)}." if failed else ""))
    if "duckdb" in e:
        text += f" Against DuckDB: {ratio(e['ooo']['total_s'], e['duckdb']['total_s'])}."
    return text + "\n"


def other_runs(doc):
    """The totals of other runs of the same set-up (render mode, --other-runs): how much the machine moves them."""
    runs = doc.get("other_runs", [])
    if not runs:
        return ""
    engines = [e for e in ("ooo", "spark", "duckdb") if e in doc["engines"]]
    names = {"ooo": "engine", "spark": "Spark", "duckdb": "DuckDB"}
    spread = []
    for e in engines:
        totals = [r["engines"][e]["total_s"] for r in [doc] + runs if e in r["engines"]]
        spread.append(f"{names[e]} {max(totals) / min(totals):.1f}x")
    lines = ["## Other runs", "",
             "The same script on the same cluster and data at other times of the same day ("
             + ", ".join(f"[{r['file']}]({r['file']})" for r in runs) + "); totals of the medians in "
             "seconds. Largest total over smallest: " + ", ".join(spread) + ".", "",
             "| run | load average at start, end | " + " | ".join(names[e] for e in engines) + " | engine/Spark |",
             "|---" * (len(engines) + 3) + "|"]
    for r in [doc] + runs:
        m = r["machine"]
        totals = {e: r["engines"][e]["total_s"] for e in engines if e in r["engines"]}
        load = f"{m['load_average_at_start'][0]:.1f}, {m.get('load_average_at_end', [float('nan')])[0]:.1f}"
        label = r.get("started", "-") + (" (above)" if r is doc else "")
        lines.append(f"| {label} | {load} | " + " | ".join(fmt(totals.get(e)) for e in engines)
                     + f" | {ratio(totals.get('ooo'), totals.get('spark'))} |")
    return "\n".join(lines) + "\n"


def write_doc(doc, queries, path, plot_name, json_name):
    m = doc["machine"]
    failures = [f"- {e}: {r['query']} failed: {r['error']}" for e, f in doc["engines"].items()
                for r in f["queries"] if "error" in r]
    checks = doc["checks"]
    check_lines = []
    for e, per_q in checks.items():
        bad = {q: v for q, v in per_q.items() if v != "same rows as DuckDB"}
        check_lines.append(f"- {e}: " + ("all queries return DuckDB's rows (row counts and values)." if not bad else
                                           "differs from DuckDB on " + "; ".join(f"{q}: {v}" for q, v in bad.items())))
    spark_ran = "spark" in doc["engines"]
    runs = "once more" if doc["repeat"] == 1 else f"{doc['repeat']} times"
    shown = "the time of that run" if doc["repeat"] == 1 else "the median of those runs"
    spark_run = (f", Spark SQL {doc['engines']['spark'].get('version', '')} (`local[2]`, over Parquet) and "
                 if spark_ran else " and ")
    spark_not_run = ("" if spark_ran else "\nSpark SQL was not run at this scale (`--engines` left it out).\n")
    spark_settings = (f"Spark SQL reads the Parquet files through temporary views, with its default settings besides\n"
                      f"`local[2]` and `spark.driver.memory={doc['engines']['spark'].get('settings', {}).get('spark.driver.memory', '-')}`.\n"
                      if spark_ran else "")
    text = f"""# TPC-H: the engine{', Spark SQL' if spark_ran else ''} and DuckDB

The 22 TPC-H queries at SF {doc['sf']} on one machine, in one run of
`cluster-tools/src/main/scripts/tpch-peers.sh`: this engine on a local cluster of
{doc['engines'].get('ooo', {}).get('nodes', '-')} nodes (`ooo bench tpch`, in daemon mode){spark_run}DuckDB
{doc['engines'].get('duckdb', {}).get('version', '')} (`SET threads=2`). Each query runs once to warm up, then
{runs}; the tables show {shown} in seconds, wall time with every row
read by the client.
{spark_not_run}
The engine's figures are those of `ooo bench tpch --cluster <dir> --repeat {doc['repeat']} --json`, which plans
and runs each statement as the SQL endpoint does, in its own process (the coordinator's part; `OOO_HEAP`,
default 6 GiB of heap), on the cluster's node daemons (defaults of `ooo cluster start`: 1 GiB of heap,
a 64 MiB buffer pool and direct I/O each).

{markdown(doc, queries)}
{targets(doc)}
![TPC-H per query]({plot_name})

All figures, each run included: [{json_name}]({json_name}).

## Answers

Every engine's rows are compared with DuckDB's: row counts, and values (numbers within 0.01
absolute or 1e-9 relative, in the query's order, or sorted where ties may order differently).

{chr(10).join(check_lines) if check_lines else '- (no engine besides DuckDB ran)'}
{chr(10).join(failures)}
{('- the engine did not finish: ' + doc['engine_error']) if 'engine_error' in doc else ''}

## Data

Generated by `io.trino.tpch` 1.2, the generator `ooo load tpch` uses, through the engine's own
TPC-H schema (`TpchData.java`: same column types, money as DECIMAL(15,2)), written as `|`-separated
files and converted to Parquet once. Rows per table:
{', '.join(f"{t} {n:,}" for t, n in doc['data']['rows'].items())}.
Parquet: {doc['data']['parquet_mib']:.0f} MiB. The engine's cluster was loaded with
`ooo load tpch --sf {doc['sf']} --cluster ...` from the same generator.

{spark_settings}DuckDB loads the Parquet files into its in-memory tables first (its own storage, as the engine
queries its own store) and runs the query texts unchanged{'; Spark runs them unchanged too' if spark_ran else ''} (they are
the Hive SQL of `docs/queries/tpch`).

## Machine

Engine at commit {doc.get('commit') or '-'}. {m['cores']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, {m['jdk']}, Python {m['python']}, {m['os']}.
Load average (1, 5, 15 minutes) when the run started: {', '.join(f'{x:.2f}' for x in m['load_average_at_start'])};
when it ended: {', '.join(f'{x:.2f}' for x in m.get('load_average_at_end', []))}.
{doc.get('note', '')}

{other_runs(doc)}
## Commands

```sh
{chr(10).join(doc['commands'])}
```
"""
    path.write_text(text)


def render(doc, queries, out, name):
    """The plot and the document of a run; returns the engines that ran."""
    ran = [e for e in ("ooo", "spark", "duckdb") if e in doc["engines"]]
    plot(doc["engines"], ran, queries, out / f"{name}.png")
    write_doc(doc, queries, out / f"{name}.md", f"{name}.png", f"{name}.json")
    log(f"wrote {out / (name + '.md')}, .json and .png")
    return ran


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--render", type=Path, help="only write the plot and document again from this JSON of a run")
    ap.add_argument("--other-runs", type=Path, nargs="*", default=[],
                    help="with --render: JSONs of other runs whose totals the document lists too")
    ap.add_argument("--sf")
    ap.add_argument("--data", type=Path, help="directory TpchData.java wrote")
    ap.add_argument("--queries-dir", type=Path)
    ap.add_argument("--queries", default=",".join(str(i) for i in range(1, 23)))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engines", default="duckdb,spark,ooo")
    ap.add_argument("--cluster", type=Path, help="a running cluster loaded at the same SF (for the engine)")
    ap.add_argument("--ooo", default="ooo")
    ap.add_argument("--spark-master", default="local[2]")
    ap.add_argument("--spark-driver-memory", default="4g")
    ap.add_argument("--out", type=Path, required=True, help="directory for <name>.json, <name>.png, <name>.md")
    ap.add_argument("--name", default="tpch")
    ap.add_argument("--note", default="", help="a sentence for the document, e.g. what else ran on the machine")
    ap.add_argument("--command", action="append", default=[], help="a command line to list in the document")
    a = ap.parse_args()

    if a.render:
        doc = json.loads(a.render.read_text())
        if a.other_runs:
            doc["other_runs"] = [dict(json.loads(f.read_text()), file=f.name) for f in a.other_runs]
        render(doc, [r["query"] for r in next(iter(doc["engines"].values()))["queries"]], a.out, a.name)
        return 0
    if not (a.sf and a.data and a.queries_dir):
        ap.error("give --sf, --data and --queries-dir (or --render)")
    queries = [f"q{int(x):02d}" for x in a.queries.split(",")]
    engines = a.engines.split(",")
    if "ooo" in engines and a.cluster is None:
        ap.error("the engine ('ooo' in --engines) needs --cluster")
    sf = float(a.sf)
    doc = {"sf": int(sf) if sf.is_integer() else sf, "repeat": a.repeat, "machine": machine(), "engines": {}, "note": a.note,
           "commands": a.command, "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    git = subprocess.run(["git", "-C", str(a.queries_dir), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    doc["commit"] = git.stdout.strip() or None
    files = parquet_files(a.data)
    doc["data"] = {"rows": row_counts(files),
                   "parquet_mib": sum(f.stat().st_size for f in files.values()) / 2**20,
                   "generator": "io.trino.tpch 1.2 through org.oooengine.core.tpch.TpchSchema (TpchData.java)"}
    answers = {}
    if "duckdb" in engines:
        doc["engines"]["duckdb"], answers["duckdb"] = run_duckdb(files, a.queries_dir, queries, a.repeat, 2)
    if "spark" in engines:
        doc["engines"]["spark"], answers["spark"] = run_spark(files, a.queries_dir, queries, a.repeat, a.spark_master,
                                                              a.spark_driver_memory)
    if "ooo" in engines:
        results = Path(tempfile.mkdtemp(prefix="ooo-tpch-rows-"))
        try:
            doc["engines"]["ooo"], answers["ooo"] = run_engine(a.ooo, a.cluster, queries, a.repeat, results)
        except Exception as e:  # the peers' figures are still written
            doc["engine_error"] = str(e)
            log(f"engine: {e}")
        finally:
            shutil.rmtree(results, ignore_errors=True)
    doc["checks"] = check(answers, queries)
    doc["machine"]["load_average_at_end"] = os.getloadavg()
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / f"{a.name}.json").write_text(json.dumps(doc, indent=2) + "\n")
    ran = render(doc, queries, a.out, a.name)
    for e in ran:
        log(f"{e}: total {doc['engines'][e]['total_s']} s")
    bad = "engine_error" in doc or any("error" in r for f in doc["engines"].values() for r in f["queries"]) or any(
        v != "same rows as DuckDB" for c in doc["checks"].values() for v in c.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
