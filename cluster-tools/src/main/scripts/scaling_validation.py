#!/usr/bin/env python3
"""Predicted against measured weak scaling: reads what scaling-validate.sh wrote into --dir
(predicted-<selectivity>.jsonl from `ooo bench scaling --json`, join-<N>.jsonl from `ooo bench join
--json`, tpch-<N>.json from `ooo bench tpch --json`) and prints one JSON object: a row per query,
selectivity and node count with the predicted seconds, the median of the measured runs and the
error (predicted / measured - 1), the scalability T(1)/T(N) predicted and measured, and per node
count the median absolute errors (TPC-H on one node, the model's input, left out)."""
import argparse
import json
import os
import statistics


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def measured_join(dir_, nodes, query, selectivity):
    runs = [r["seconds"] for r in read_jsonl(os.path.join(dir_, f"join-{nodes}.jsonl"))
            if r.get("query") == query and abs(r.get("selectivity", -1) - selectivity) < 1e-12]
    return runs


def measured_tpch(dir_, nodes, query):
    path = os.path.join(dir_, f"tpch-{nodes}.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        report = json.load(f)
    name = "q%02d" % int(query.split("Q")[-1])
    return next((q.get("runs_s", []) for q in report.get("queries", []) if q.get("query") == name), [])


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--dir", required=True)
    p.add_argument("--placement", required=True)
    p.add_argument("--nodes", required=True, help="node counts, space separated")
    p.add_argument("--selectivities", required=True, help="space separated")
    p.add_argument("--sf-per-node", type=float, required=True)
    p.add_argument("--queries", default="OL PL Q3 Q8", help="the joins measured, space separated")
    a = p.parse_args()
    nodes = [int(n) for n in a.nodes.split()]
    rows = []
    tpch_done = False
    for s in a.selectivities.split():
        sel = float(s)
        for pred in read_jsonl(os.path.join(a.dir, f"predicted-{s}.jsonl")):
            q, n = pred["query"], pred["nodes"]
            tpch = q.startswith("TPC-H")
            if (tpch and tpch_done) or (not tpch and q not in a.queries.split()):
                continue
            runs = measured_tpch(a.dir, n, q) if tpch else measured_join(a.dir, n, q, sel)
            measured = statistics.median(runs) if runs else None
            rows.append({
                "query": q, "selectivity": None if tpch else sel, "nodes": n,
                "predicted_s": round(pred["seconds"], 4),
                "measured_s": None if measured is None else round(measured, 4),
                "runs": len(runs),
                "error": None if not measured else round(pred["seconds"] / measured - 1, 3),
                # TPC-H's time on one node is the model's input, not its prediction
                "base": tpch and n == 1,
            })
        tpch_done = True
    # Scalability T(1)/T(N), predicted against measured: the model's growth with N, apart from how
    # well it prices one node.
    one = {(r["query"], r["selectivity"]): r for r in rows if r["nodes"] == 1}
    for r in rows:
        base = one.get((r["query"], r["selectivity"]))
        if base and base["measured_s"] and r["measured_s"]:
            predicted = base["predicted_s"] / r["predicted_s"]
            measured = base["measured_s"] / r["measured_s"]
            r["predicted_scalability"] = round(predicted, 3)
            r["measured_scalability"] = round(measured, 3)
            r["scalability_error"] = round(predicted / measured - 1, 3)
    summary = {}
    for n in nodes:
        errors = [abs(r["error"]) for r in rows if r["nodes"] == n and r["error"] is not None and not r["base"]]
        scal = [abs(r["scalability_error"]) for r in rows if r["nodes"] == n and "scalability_error" in r]
        summary[str(n)] = {"median_abs_error": round(statistics.median(errors), 3) if errors else None,
                           "within_50pct": sum(e <= 0.5 for e in errors), "compared": len(errors),
                           "median_abs_scalability_error": round(statistics.median(scal), 3) if scal else None}
    print(json.dumps({"placement": a.placement, "sf_per_node": a.sf_per_node, "nodes": nodes,
                      "by_nodes": summary, "rows": rows}))


if __name__ == "__main__":
    main()
