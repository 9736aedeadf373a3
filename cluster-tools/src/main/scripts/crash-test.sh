#!/usr/bin/env bash
# Long crash-recovery run for transactional tables: kills a child JVM running bank transfers with
# SIGKILL at random moments, recovers, and checks totals, acknowledged commits and atomicity.
# Ten configurations (each protocol with fsync, four with nvm-sim:50, elr-swal with none) times
# KILLS_PER_CONFIG kills; the default 50 gives 500 runs (28 minutes on 2 shared cores).
#
# Usage: cluster-tools/src/main/scripts/crash-test.sh [KILLS_PER_CONFIG]
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../../.." && pwd)"
kills="${1:-50}"
cd "$root"
exec mvn -B -q -pl engine-txn -am verify \
    -Dtest=CrashRecoveryTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtxn.crash.kills="$kills"
