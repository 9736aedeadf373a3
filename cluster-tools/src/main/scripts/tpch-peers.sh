#!/usr/bin/env bash
# TPC-H SF <sf>: the 22 queries of docs/queries/tpch on DuckDB (2 threads) and Spark SQL (local[2],
# over Parquet) and, given a running cluster loaded at the same SF, on the engine (ooo bench tpch),
# in one run on this machine; compares every engine's rows with DuckDB's and writes
# <out>/<name>.json, .png and .md (default: docs/benchmarks/tpch.*).
#
#   tpch-peers.sh --sf 1 [--cluster DIR] [--repeat 3] [--queries 1,3,...] [--engines duckdb,spark,ooo[,ooo-files][,ooo-jdbc]]
#                 [--timeout SECONDS] [--spark-memory 4g] [--duckdb-memory 8GB] [--out docs/benchmarks] [--name tpch]
#                 [--note "what else ran on the machine"] [--warm-engine]
#                 [--command "the cluster's start and load commands, listed in the document"]...
#
# The data comes from io.trino.tpch through the engine's TPC-H schema (TpchData.java), the generator
# 'ooo load tpch' uses, as '|'-separated files converted once to Parquet, kept under
# ~/.cache/ooo-bench/tpch-sf<sf> (OOO_BENCH_CACHE). The script makes its own Python virtual
# environment there (pyspark==4.0.1, duckdb, matplotlib from PyPI) on first use.
# 'ooo-jdbc' in --engines also runs the engine through the Hive JDBC driver on the cluster's coordinator
# (ooo bench tpch --jdbc), what a user's client waits for.
# 'ooo-files' in --engines also runs the engine over the same Parquet files, as external tables
# analyzed first (ooo bench tpch --files --analyze), against its own tables and Spark. Without --cluster only DuckDB and Spark run. --timeout cancels a DuckDB or Spark run of a query
# after that long and reports the query as timed out (default: no limit).
# peers-common.sh and peers.py hold what this script shares with tpcds-peers.sh.
set -euo pipefail

bench=tpch
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/peers-common.sh"
peers_options "$@"
peers_venv
peers_classpath

data="$cache/tpch-sf$sf"
if [[ ! -f "$data/.complete" ]]; then
    echo "tpch-peers: generating TPC-H SF $sf into $data" >&2
    rm -rf "$data"
    java -cp "$classpath" "$here/TpchData.java" "$sf" "$data"
    touch "$data/.complete"
fi
peers_run "$data"
