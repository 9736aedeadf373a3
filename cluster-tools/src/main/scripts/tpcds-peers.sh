#!/usr/bin/env bash
# TPC-DS SF <sf>: the 99 queries of docs/queries/tpcds on DuckDB (2 threads) and Spark SQL (local[2],
# over Parquet) and, given a running cluster loaded at the same SF, on the engine (ooo bench tpcds,
# which checks its answers against DuckDB's), in one run on this machine; compares Spark's rows with
# DuckDB's and writes <out>/<name>.json, .png and .md (default: docs/benchmarks/tpcds-peers.*).
#
#   tpcds-peers.sh --sf 1 [--cluster DIR] [--repeat 3] [--queries 1,72,...] [--engines duckdb,spark,ooo]
#                  [--timeout 300] [--spark-memory 4g] [--duckdb-memory 8GB] [--out docs/benchmarks] [--name tpcds-peers]
#                  [--note "what else ran on the machine"] [--warm-engine]
#                  [--command "the cluster's start and load commands, listed in the document"]...
#
# The data comes from io.trino.tpcds through the engine's TPC-DS schema, the generator 'ooo load
# tpcds' uses: TpcdsData.java loads it into the DuckDB file 'ooo bench tpcds' checks against
# (~/.cache/ooo-bench/tpcds-sf<sf>.duckdb, unless it holds that SF already) and copies each table
# to Parquet once, under ~/.cache/ooo-bench/tpcds-sf<sf> (OOO_BENCH_CACHE). The Python environment
# is tpch-peers.sh's (pyspark==4.0.1, duckdb, matplotlib), made on first use.
# Without --cluster only DuckDB and Spark run. A run of a query still going after --timeout seconds
# (default 300) is cancelled and the query reported as timed out; the engine gets the same limit.
# peers-common.sh and peers.py hold what this script shares with tpch-peers.sh.
set -euo pipefail

bench=tpcds default_name=tpcds-peers
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/peers-common.sh"
peers_options "$@"
[[ "$name" != tpcds ]] || die "--name tpcds would overwrite docs/benchmarks/tpcds.md, the engine's own TPC-DS page"
peers_venv
peers_classpath

data="$cache/tpcds-sf$sf"
duckdb_file="$cache/tpcds-sf$sf.duckdb"
if [[ ! -f "$data/.complete" ]]; then
    echo "tpcds-peers: generating TPC-DS SF $sf into $duckdb_file and $data" >&2
    rm -rf "$data"
    java -cp "$classpath" "$here/TpcdsData.java" "$sf" "$duckdb_file" "$data"
    touch "$data/.complete"
fi
peers_run "$data" --duckdb-file "$duckdb_file"
