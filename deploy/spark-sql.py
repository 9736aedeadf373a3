#!/usr/bin/env python3
"""Runs one SQL statement in Spark SQL whose catalog is a Hive Metastore and prints each row of its
answer as comma-separated values: how the multi-host test checks that Spark reads, through the
metastore, a table the engine created and wrote.

    spark-sql.py --metastore thrift://HOST:9083 -e "SELECT count(*) FROM db.t"

Spark (pyspark 4.0) runs in this process (local[1]); it talks to the metastore with the Hive client
of --metastore-version (4.0.1 by default, for a Hive 4 metastore: Spark's own Hive 2.3 client cannot
call it), whose jars Spark fetches from Maven Central on first use (into ~/.ivy2*).
"""
import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metastore", required=True, help="the metastore's thrift URI")
    parser.add_argument("--metastore-version", default="4.0.1", help="the Hive client version Spark uses")
    parser.add_argument("-e", dest="sql", required=True, help="the statement")
    args = parser.parse_args()

    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]").appName("ooo-spark-sql")
             .config("spark.sql.hive.metastore.version", args.metastore_version)
             .config("spark.sql.hive.metastore.jars", "maven")
             .config("spark.hadoop.hive.metastore.uris", args.metastore)
             .config("spark.ui.enabled", "false")
             .enableHiveSupport().getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        for row in spark.sql(args.sql).collect():
            print(",".join("" if v is None else str(v) for v in row))
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
