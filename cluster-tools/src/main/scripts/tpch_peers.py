"""TPC-H on the engine, Spark SQL and DuckDB on the same data and machine; see tpch-peers.sh."""
import json
import os
import subprocess
import sys
import tempfile
import shutil
from pathlib import Path

from peers import Benchmark, LABELS, bars, duckdb_setup, fmt, log, main, ratio

TABLES = ["region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"]


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


# ---------------------------------------------------------------- the engine

def run_engine(ooo, cluster, queries, repeat, results_dir, extra=()):
    numbers = ",".join(str(int(q[1:])) for q in queries)
    cmd = [ooo, "bench", "tpch", "--cluster", str(cluster), "--queries", numbers, "--repeat", str(repeat), "--json",
           "--results", str(results_dir), *extra]
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


class Tpch(Benchmark):
    name = "tpch"
    title = "TPC-H"
    query_numbers = list(range(1, 23))
    default_timeout = 0  # as before the limit existed: SF 10 runs take minutes per query on Spark

    def parquet_files(self, data_dir):
        return parquet_files(data_dir)

    def generator(self):
        return "io.trino.tpch 1.2 through org.oooengine.core.tpch.TpchSchema (TpchData.java)"

    def run_engine(self, a, queries, timeout):
        # ooo bench tpch has no time limit of its own; its rows are compared here.
        results = Path(tempfile.mkdtemp(prefix="ooo-tpch-rows-"))
        try:
            report, answers = run_engine(a.ooo, a.cluster, queries, a.repeat, results)
            return report, answers, None
        finally:
            shutil.rmtree(results, ignore_errors=True)

    def run_engine_jdbc(self, a, queries):
        # through the Hive JDBC driver on the cluster's coordinator: what a user's client waits for
        results = Path(tempfile.mkdtemp(prefix="ooo-tpch-jdbc-rows-"))
        try:
            return run_engine(a.ooo, a.cluster, queries, a.repeat, results, ["--jdbc"])
        finally:
            shutil.rmtree(results, ignore_errors=True)

    def run_engine_files(self, a, queries, files):
        # ooo bench tpch --files reads <dir>/<table>/: each table's Parquet file linked into a directory of its own
        tables = next(iter(files.values())).parent.parent / "parquet-tables"
        for t, f in files.items():
            link = tables / t / f.name
            if not link.exists():
                link.parent.mkdir(parents=True, exist_ok=True)
                os.link(f, link)
        results = Path(tempfile.mkdtemp(prefix="ooo-tpch-files-rows-"))
        try:
            # analyzed, as a warehouse's tables usually are; the analysis is not timed
            report, answers = run_engine(a.ooo, a.cluster, queries, a.repeat, results,
                                         ["--files", str(tables), "--analyze"])
            return report, answers
        finally:
            shutil.rmtree(results, ignore_errors=True)

    def render(self, doc, queries, out, name):
        return render(doc, queries, out, name)


# ---------------------------------------------------------------- report

def plot(figures, engines, queries, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = dict(LABELS, ooo="OoO Engine (4 nodes)")
    fig, ax = plt.subplots(figsize=(14, 5))
    bars(ax, figures, engines, queries,
         {e: f"{labels[e]}: total {figures[e]['total_s']:.2f} s" for e in engines})
    ax.set_xticks(range(len(queries)))
    ax.set_xticklabels([q.upper() for q in queries])
    ax.set_title("TPC-H per query, same machine and data")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


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


def compared(lines, e, queries, columns, ratios):
    """Appends to `lines` a table of the engines' medians per query (`columns`: engine, header) and their
    `ratios` (numerator, denominator, header), then the totals; returns the totals by engine."""
    by = {k: {r["query"]: r for r in e[k]["queries"]} for k, _ in columns if k in e}
    lines += ["| query | " + " | ".join(h for _, h in columns + [(None, r[2]) for r in ratios]) + " |",
              "|---" * (1 + len(columns) + len(ratios)) + "|"]
    for q in queries:
        med = {k: by[k].get(q, {}).get("median_s") for k in by}
        cells = [fmt(med.get(k)) for k, _ in columns] + [ratio(med.get(n), med.get(d)) for n, d, _ in ratios]
        lines.append(f"| {q.upper()} | " + " | ".join(cells) + " |")
    tot = {k: e[k]["total_s"] for k in by}
    cells = [fmt(tot.get(k)) for k, _ in columns] + [ratio(tot.get(n), tot.get(d)) for n, d, _ in ratios]
    lines.append("| **total** | " + " | ".join(f"**{c}**" for c in cells) + " |")
    return tot


def unfinished(doc, error_key, how):
    """The error of an engine run that did not finish, as a sentence; nothing when it was not asked for."""
    return f"\nThe engine {how} did not finish: {doc[error_key]}\n" if error_key in doc else ""


def files_section(doc, queries):
    """The engine over the Parquet files as external tables, against itself over its own tables and Spark."""
    e = doc["engines"]
    if "ooo-files" not in e:
        return unfinished(doc, "engine_files_error", "over the Parquet files")
    lines = ["## The engine over the Parquet files", "",
             "The same queries on the same nodes over the Parquet files Spark reads, registered as external "
             "tables and analyzed (`ooo bench tpch --files <dir> --analyze`: `CREATE EXTERNAL TABLE ... STORED AS "
             "PARQUET`, then `ANALYZE TABLE ... COMPUTE STATISTICS FOR COLUMNS`, not timed), the nodes "
             "reading their splits. Spark plans without column statistics (its cost-based optimizer is off by "
             "default).", ""]
    tot = compared(lines, e, queries, [("ooo-files", "files s"), ("ooo", "own tables s"), ("spark", "Spark s")],
                   [("ooo-files", "ooo", "files/own"), ("ooo-files", "spark", "files/Spark")])
    if "ooo" in tot and "spark" in tot:
        lines += ["", f"Over the files the engine takes {tot['ooo-files'] / tot['ooo']:.2f}x its time over its own "
                  f"tables (target: at most 1.5x) and {tot['ooo-files'] / tot['spark']:.2f}x Spark SQL's over the same "
                  "files (target: at most 0.5x)."]
    return "\n".join(lines) + "\n"


def jdbc_section(doc, queries):
    """The engine through the Hive JDBC driver, against itself in process and DuckDB: the figure a user waits for."""
    e = doc["engines"]
    if "ooo-jdbc" not in e:
        return unfinished(doc, "engine_jdbc_error", "through Hive JDBC")
    lines = ["## Through the Hive JDBC driver", "",
             "The same queries through the Hive JDBC driver on the cluster's coordinator (`ooo bench tpch --jdbc`), "
             "as a user's client runs them: the coordinator's own JVM plans and runs each statement, the rows "
             "travel to the client over HiveServer2's protocol.", ""]
    tot = compared(lines, e, queries, [("ooo-jdbc", "JDBC s"), ("ooo", "in process s"), ("duckdb", "DuckDB s")],
                   [("ooo-jdbc", "duckdb", "JDBC/DuckDB")])
    slow = [f"{r['query'].upper()} {fmt(r['median_s'])} s" for r in e["ooo-jdbc"]["queries"] if r.get("median_s", 0) > 1]
    if "duckdb" in tot:
        lines += ["", f"Through JDBC the engine takes {tot['ooo-jdbc'] / tot['duckdb']:.1f}x DuckDB's time (target: at "
                  "most 4x); " + (f"{len(slow)} {'query takes' if len(slow) == 1 else 'queries take'} over 1 s "
                                  f"(target: none): {', '.join(slow)}." if slow
                                  else "no query takes over 1 s (target: none).")]
    return "\n".join(lines) + "\n"


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
{doc['engines'].get('duckdb', {}).get('version', '')} ({duckdb_setup(doc)}). Each query runs once to warm up, then
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

{files_section(doc, queries)}
{jdbc_section(doc, queries)}

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
    return ran



if __name__ == "__main__":
    sys.exit(main(Tpch))
