"""TPC-DS on the engine, Spark SQL and DuckDB on the same data and machine; see tpcds-peers.sh."""
import json
import subprocess
import sys

from peers import SAME, Benchmark, LABELS, bars, duckdb_setup, fmt, log, main, ratio

TABLES = ["call_center", "catalog_page", "customer", "customer_address", "customer_demographics", "date_dim",
          "household_demographics", "income_band", "item", "promotion", "reason", "ship_mode", "store", "time_dim",
          "warehouse", "web_page", "web_site", "inventory", "store_sales", "store_returns", "catalog_sales",
          "catalog_returns", "web_sales", "web_returns"]
ENGINES = ("ooo", "spark", "duckdb")
NAMES = {"ooo": "engine", "spark": "Spark SQL", "duckdb": "DuckDB"}
STATUSES = ("ok", "wrong", "refused", "timeout", "failed")


class Tpcds(Benchmark):
    name = "tpcds"
    title = "TPC-DS"
    query_numbers = list(range(1, 100))
    default_timeout = 300
    # Spark SQL 4.0.1 parses all 99 Hive texts as written: no query needs a (pattern, replacement, why)
    # here; one that does is listed in the document.
    spark_rewrites = {}

    def duckdb_text(self, q):
        """Hive quotes names in backquotes, DuckDB in double quotes (as TpcdsQueries.forDuckDb)."""
        return self.text(q).replace("`", '"')

    def parquet_files(self, data_dir):
        files = {t: data_dir / f"{t}.parquet" for t in TABLES}
        missing = [t for t, f in files.items() if not f.exists()]
        if missing:
            raise FileNotFoundError(f"{data_dir} lacks the Parquet files of {', '.join(missing)}: run tpcds-peers.sh")
        return files

    def generator(self):
        return "io.trino.tpcds through org.oooengine.core.tpcds.TpcdsSchema, by way of TpcdsDuckDb (TpcdsData.java)"

    def run_engine(self, a, queries, timeout):
        cmd = [a.ooo, "bench", "tpcds", "--cluster", str(a.cluster), "--queries", ",".join(queries),
               "--repeat", str(a.repeat), "--json"]
        if timeout:
            cmd += ["--timeout", f"{int(timeout)}s"]
        if a.duckdb_file:
            cmd += ["--duckdb", str(a.duckdb_file)]
        log("engine: " + " ".join(cmd))
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)  # its progress passes through on stderr
        if not p.stdout.strip():
            raise RuntimeError(f"ooo bench tpcds printed nothing (exit {p.returncode})")
        return engine_figures(json.loads(p.stdout))

    def render(self, doc, queries, out, name):
        ran = [e for e in ENGINES if e in doc["engines"]]
        plot(doc, ran, queries, out / f"{name}.png")
        (out / f"{name}.md").write_text(document(doc, queries, f"{name}.png", f"{name}.json"))
        return ran

    def failed(self, doc):
        """Only wrong answers and failures: refusals and timeouts are findings of the run, not its errors."""
        return "engine_error" in doc or any(status(doc, e, q) in ("wrong", "failed")
                                            for e in doc["engines"] for q in by_query(doc, e))


def engine_figures(report):
    """ooo bench tpcds --json as this script's figures: its statuses, and its checks against its own DuckDB
    (the same rows through DuckDB's JDBC driver)."""
    queries, checks = [], {}
    for r in report["queries"]:
        mine = {k: r[k] for k in ("query", "status", "median_s", "runs_s", "rows", "sql_state", "error", "difference")
                if k in r}
        if "duckdb_s" in r:
            mine["duckdb_jdbc_s"] = r["duckdb_s"]
        queries.append(mine)
        checks[r["query"]] = {"ok": SAME, "wrong": r.get("difference")}.get(
            r["status"], f"{r['status']}: {' '.join(x for x in (r.get('sql_state'), r.get('error')) if x)}")
    figures = {"queries": queries, "total_s": round(sum(r.get("median_s", 0) for r in queries), 3),
               "nodes": report["nodes"], "timeout_s": report["timeout_s"], "counts": report["counts"],
               "causes": report["causes"]}
    return figures, None, checks


# ---------------------------------------------------------------- statuses and totals

def by_query(doc, engine):
    return {r["query"]: r for r in doc["engines"][engine]["queries"]}


def status(doc, engine, q):
    """ok, wrong (an answer that is not DuckDB's), refused, timeout or failed."""
    r = by_query(doc, engine).get(q)
    if r is None:
        return "failed"
    s = r.get("status", "failed")
    if s == "ok" and engine != "duckdb" and doc["checks"].get(engine, {}).get(q, SAME) != SAME:
        return "wrong"
    return s


def answered(doc, engines, queries):
    """The queries every engine answered (with a time), right or wrong."""
    return [q for q in queries if all(by_query(doc, e).get(q, {}).get("median_s") is not None for e in engines)]


def total(doc, engine, queries):
    medians = by_query(doc, engine)
    return sum(medians[q]["median_s"] for q in queries)


# ---------------------------------------------------------------- plot

def plot(doc, engines, queries, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = dict(LABELS, ooo=f"OoO Engine ({doc['engines'].get('ooo', {}).get('nodes', '-')} nodes)")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(22, 10), gridspec_kw={"height_ratios": [3, 2]})
    common = answered(doc, engines, queries)
    bars(top, doc["engines"], engines, queries,
         {e: f"{labels[e]}: {total(doc, e, common):.2f} s over the {len(common)} queries all answered"
          for e in engines})
    top.set_xticks(range(len(queries)))
    top.set_xticklabels([q[1:] for q in queries], fontsize=7)
    top.set_title(f"TPC-DS SF {doc['sf']} per query, same machine and data (no bar: not answered)")
    top.set_ylim(top=top.get_ylim()[1] * 10)  # room for the legend above the bars
    top.legend(loc="upper left")
    if "duckdb" in engines and len(engines) > 1:
        duck = by_query(doc, "duckdb")
        for e in engines:
            if e == "duckdb":
                continue
            mine = by_query(doc, e)
            rs = sorted(mine[q]["median_s"] / duck[q]["median_s"] for q in answered(doc, [e, "duckdb"], queries)
                        if duck[q]["median_s"] > 0)
            bottom.plot(range(1, len(rs) + 1), rs, marker=".", label=f"{labels[e]} / DuckDB")
        bottom.axhline(1, color="grey", linewidth=0.8)
        bottom.set_yscale("log")
        bottom.set_xlabel("queries, sorted by the ratio")
        bottom.set_ylabel("time / DuckDB's (log scale)")
        bottom.grid(which="both", alpha=0.3)
        bottom.legend(loc="upper left")
    else:
        bottom.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


# ---------------------------------------------------------------- document

def table(header, rows):
    return "\n".join(["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
                     + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def summary(doc, engines, queries, common):
    rows = [[s] + [sum(status(doc, e, q) == s for q in queries) for e in engines] for s in STATUSES]
    rows = [r for r in rows if any(r[1:]) or r[0] == "ok"]
    rows.append(["total of the medians, every query it answered (s)"]
                + [fmt(doc["engines"][e]["total_s"]) for e in engines])
    rows.append([f"total over the {len(common)} queries all answered (s)"]
                + [f"**{fmt(total(doc, e, common))}**" for e in engines])
    for other in ("spark", "duckdb"):
        if other in engines and len(engines) > 1:
            rows.append([f"against {NAMES[other]}, same queries"]
                        + [ratio(total(doc, e, common), total(doc, other, common)) if e != other else "1"
                           for e in engines])
    return table(["queries"] + [NAMES[e] for e in engines], rows)


def headline(doc, engines, common):
    if not common:
        return "No query was answered by every engine that ran."
    t = {e: total(doc, e, common) for e in engines}
    parts = [f"{NAMES[e]} {fmt(t[e])} s" for e in engines]
    text = f"Over the {len(common)} queries every engine answered: " + ", ".join(parts) + "."
    pairs = [("ooo", "spark"), ("ooo", "duckdb")] if "ooo" in engines else [("spark", "duckdb")]
    ratios = [f"{NAMES[x]} / {NAMES[y]} {ratio(t[x], t[y])}" for x, y in pairs if x in t and y in t]
    if ratios:
        text += " Totals: " + ", ".join(ratios) + "."
    return text


def slowest(doc, engines, queries, n=10):
    lead = next(e for e in ENGINES if e in engines)
    mine = by_query(doc, lead)
    timed = sorted((q for q in queries if mine.get(q, {}).get("median_s") is not None),
                   key=lambda q: -mine[q]["median_s"])[:n]
    header = ["query"] + [f"{NAMES[e]} s" for e in engines]
    others = [e for e in engines if e != lead]
    header += [f"{NAMES[lead]}/{NAMES[e]}" for e in others]
    rows = []
    for q in timed:
        med = {e: by_query(doc, e).get(q, {}).get("median_s") for e in engines}
        rows.append([q.upper()] + [fmt(med[e]) if med[e] is not None else status(doc, e, q) for e in engines]
                    + [ratio(med[lead], med[e]) for e in others])
    return f"The {len(rows)} slowest on {NAMES[lead] if lead != 'ooo' else 'the engine'}:\n\n" + table(header, rows)


def every_query(doc, engines, queries):
    header = ["query"] + [f"{NAMES[e]} s" for e in engines] + ["rows"]
    lead = "ooo" if "ooo" in engines else None
    if lead:
        header += [f"engine/{NAMES[e]}" for e in engines if e != lead]
    rows = []
    for q in queries:
        cells, med = [], {}
        for e in engines:
            r = by_query(doc, e).get(q, {})
            med[e] = r.get("median_s")
            s = status(doc, e, q)
            cells.append((fmt(med[e]) if med[e] is not None else "-") + ("" if s == "ok" else f" ({s})"))
        n = next((by_query(doc, e)[q]["rows"] for e in ("duckdb",) + ENGINES
                  if e in engines and "rows" in by_query(doc, e).get(q, {})), None)
        row = [q.upper()] + cells + [f"{n:,}" if n is not None else "-"]
        if lead:
            row += [ratio(med[lead], med[e]) for e in engines if e != lead]
        rows.append(row)
    return table(header, rows)


def answers(doc, engines, queries):
    lines = []
    for e in engines:
        if e == "duckdb":
            bad = [f"{q.upper()} {status(doc, e, q)}: {by_query(doc, e)[q].get('error', '')}" for q in queries
                   if status(doc, e, q) != "ok"]
            lines.append("- DuckDB: " + ("answered every query." if not bad else "; ".join(bad) + "."))
            continue
        checks = doc["checks"].get(e, {})
        bad = [f"{q.upper()} ({status(doc, e, q)}): {v}" for q, v in checks.items() if v != SAME]
        lines.append(f"- {NAMES[e]}: " + ("every query returns DuckDB's rows (row counts and values)." if not bad else
                                           f"{len(queries) - len(bad)} of {len(queries)} return DuckDB's rows; "
                                           + "; ".join(bad) + "."))
    return "\n".join(lines)


def spark_adaptations():
    if not Tpcds.spark_rewrites:
        return "Spark runs every query text as written."
    lines = ["Spark runs the texts as written but for these changes, made by the script with regular "
             "expressions (`Tpcds.spark_rewrites` in `tpcds_peers.py`):", ""]
    for q, rules in sorted(Tpcds.spark_rewrites.items()):
        for (pattern, replacement, why) in rules:
            lines.append(f"- {q.upper()}: {why}")
    return "\n".join(lines)


def document(doc, queries, plot_name, json_name):
    engines = [e for e in ENGINES if e in doc["engines"]]
    m = doc["machine"]
    common = answered(doc, engines, queries)
    ooo = doc["engines"].get("ooo")
    spark = doc["engines"].get("spark")
    duck = doc["engines"].get("duckdb")
    runs = "once more" if doc["repeat"] == 1 else f"{doc['repeat']} times"
    limit = f"{doc['timeout_s']:g} s" if doc.get("timeout_s") else "no limit"
    who = []
    if ooo:
        who.append(f"this engine on a local cluster of {ooo['nodes']} nodes (`ooo bench tpcds`)")
    if spark:
        who.append(f"Spark SQL {spark.get('version', '')} (`local[2]`, over Parquet)")
    if duck:
        who.append(f"DuckDB {duck.get('version', '')} ({duckdb_setup(doc)})")
    engine_part = ""
    if ooo:
        engine_part = (f"\nThe engine's figures are those of `ooo bench tpcds --cluster <dir> --repeat {doc['repeat']} "
                       f"--timeout {ooo.get('timeout_s', '-')}s --json`, which plans and runs each statement as the SQL "
                       "endpoint does, in its own process, on the cluster's node daemons, and checks every answer against "
                       "DuckDB's over the same rows (its own DuckDB, through JDBC, from the same generator).\n")
    elif "engine_error" in doc:
        engine_part = f"\nThe engine did not finish: {doc['engine_error']}\n"
    compared = ("Spark's rows are compared with DuckDB's as `tpch-peers.sh` compares them: row counts, and values\n"
                "(numbers within 0.01 absolute or 1e-9 relative, DuckDB's NaN taken for a NULL, strings without\n"
                "trailing blanks), in the query's order or else sorted. ")
    spark_settings = ""
    if spark:
        s = spark.get("settings", {})
        extra = ", ".join(f"`{k}={v}`" for k, v in s.items()
                          if k not in ("master", "storage", "other settings"))
        spark_settings = (f"## Spark SQL\n\nSpark reads the Parquet files through temporary views, with its default "
                          f"settings besides `local[2]` and {extra}. A run over the time limit is cancelled "
                          f"(`SparkContext.cancelAllJobs`) and the query reported as a timeout.\n\n"
                          f"{spark_adaptations()}\n")
    return f"""# TPC-DS: {', '.join(NAMES[e] if e != 'ooo' else 'the engine' for e in engines)}

{'The 99 TPC-DS queries' if len(queries) == 99 else f'{len(queries)} of the 99 TPC-DS queries'} of [docs/queries/tpcds](../queries/tpcds) at SF {doc['sf']} on one machine, in
one run of `cluster-tools/src/main/scripts/tpcds-peers.sh`: {'; '.join(who)}. Each query runs
once to warm up (the run whose rows are checked), then {runs}; times are the median, in seconds,
wall time with every row read by the client. A run of a query is cancelled after {limit}.
{engine_part}
{headline(doc, engines, common)}

{summary(doc, engines, queries, common)}

![TPC-DS per query]({plot_name})

{slowest(doc, engines, queries)}

All figures, each run included: [{json_name}]({json_name}).

## Answers

{compared if spark else ''}The engine's statuses are those of `ooo bench tpcds` (ok: DuckDB's answer).

{answers(doc, engines, queries)}
{('- the engine did not finish: ' + doc['engine_error']) if 'engine_error' in doc else ''}

{spark_settings}
## Data

Generated by `io.trino.tpcds` (the Java port of dsdgen), the generator `ooo load tpcds` uses, in
the engine's column types (`TpcdsSchema`: char(n) as VARCHAR(n), decimals as DECIMAL(p,s)): the
script loads the DuckDB file `ooo bench tpcds` checks against (`TpcdsDuckDb`, through
`TpcdsData.java`) and copies each of its 24 tables to Parquet once. DuckDB (Python) loads the Parquet
files into in-memory tables (its own storage, as the engine queries its own store) and runs the
texts with backquoted names in double quotes, as `ooo bench tpcds` does. Rows per table:
{', '.join(f"{t} {n:,}" for t, n in doc['data']['rows'].items())}.
Parquet: {doc['data']['parquet_mib']:.0f} MiB.

## Every query

A status other than ok is given in brackets: wrong (not DuckDB's rows), refused (an SQL error
naming what is not supported), timeout, failed.

{every_query(doc, engines, queries)}

## Machine

Engine at commit {doc.get('commit') or '-'}. {m['cores']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, {m['jdk']}, Python {m['python']}, {m['os']}.
Load average (1, 5, 15 minutes) when the run started: {', '.join(f'{x:.2f}' for x in m['load_average_at_start'])};
when it ended: {', '.join(f'{x:.2f}' for x in m.get('load_average_at_end', []))}.
{doc.get('note', '')}

## Commands

```sh
{chr(10).join(doc['commands'])}
```
"""


if __name__ == "__main__":
    sys.exit(main(Tpcds))
