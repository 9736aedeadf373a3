#!/usr/bin/env bash
# weak-scaling validation: N local nodes, SF 0.1 per node
set -uo pipefail
export OOO_ALLOW_ROOT=1
OOO=/tmp/ooo-ws-src/ooo
OUT=/tmp/ooo-ws-out
for N in ${NODES:-1 2 4}; do
  D=/tmp/ooo-ws$N
  SF=$(echo "0.1 * $N" | bc)
  echo "== N=$N SF=$SF $(date +%T)"
  rm -rf $D
  $OOO cluster start --dir $D --nodes $N --node-heap 1g --sql-port 0 --base-port $((7400 + 10 * N)) || exit 1
  $OOO load tpch --sf $SF --cluster $D 2> $OUT/load-$N.log || { $OOO cluster stop --dir $D; exit 1; }
  echo "loaded $(date +%T)"
  $OOO calibrate --cluster $D --seconds 1 > $OUT/calibrate-$N.log 2>&1
  cp $D/calibration.json $OUT/calibration-$N.json
  echo "calibrated $(date +%T)"
  for q in OL PL Q3 Q8; do
    for sel in 0.01 0.001; do
      $OOO bench join --cluster $D --query $q --selectivity $sel --mode ooo --cold --repeat 3 --json >> $OUT/join-$N.jsonl 2>> $OUT/join-$N.err
    done
  done
  echo "joins $(date +%T)"
  $OOO bench tpch --cluster $D --queries 1,3 --repeat 3 --json > $OUT/tpch-$N.json 2> $OUT/tpch-$N.err
  echo "tpch $(date +%T)"
  $OOO cluster stop --dir $D
done
echo "done $(date +%T)"
